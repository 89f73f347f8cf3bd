import AssistantTesting
import Dispatch
import Foundation
import NIOConcurrencyHelpers

// libFuzzer's entry point: arbitrary bytes through the daemon's line framing, JSON parser and
// dispatcher (`RPCFuzzHarness`). Built by `scripts/fuzz` with `-sanitize=fuzzer,address` and
// `-D FUZZING`; without FUZZING this file has a `main` that replays files (the corpus) through
// the same path, so the target also builds and runs in a plain `swift build`.

/// One host at a time: libFuzzer calls in a loop, on one thread. The host is replaced every
/// `inputsPerHost` inputs: what fuzzed calls leave in it (notices sent, job runs, remembered
/// secrets) otherwise grows for the whole run and slowed it from 450 to 230 inputs per second.
let harness = NIOLockedValueBox<RPCFuzzHarness>(blocking { try! await RPCFuzzHarness() })
let inputsPerHost = 20_000
let inputsFed = NIOLockedValueBox(0)

/// The fuzzer's callback is synchronous; the dispatcher is async. A fuzz harness may block its
/// own thread on a semaphore (the daemon never does).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = NIOLockedValueBox<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLockedValue { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLockedValue { $0! }
}

/// Called by libFuzzer once before the first input: the host starts here, so what it allocates
/// for its lifetime is not counted as an input's leak; the seed corpus's first pass then warms
/// the runtime's caches the same way.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?)
    -> CInt
{
    _ = harness.withLockedValue { $0 }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let current = harness.withLockedValue { $0 }
    _ = blocking { await current.feed(bytes).count }
    let fed = inputsFed.withLockedValue { count in
        count += 1
        return count
    }
    if fed % inputsPerHost == 0 {
        let fresh = blocking {
            await current.stop()
            return try! await RPCFuzzHarness()
        }
        harness.withLockedValue { $0 = fresh }
    }
    return 0
}

#if FUZZING
    // SwiftPM links an executable target's entry point as `<target>_main` (so tests can link
    // the module); libFuzzer's driver is started from there.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    @_cdecl("rpc_fuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var argc = argc
        var argv = argv
        return runFuzzerDriver(&argc, &argv, fuzzOne)
    }
#else
    @main struct Replay {
        static func main() async throws {
            let harness = try await RPCFuzzHarness()
            var inputs = 0
            for path in CommandLine.arguments.dropFirst() {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: path)).map { $0.sorted().map { "\(path)/\($0)" } } ?? [path]
                for file in files {
                    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
                    _ = await harness.feed(bytes)
                    inputs += 1
                }
            }
            print("replayed \(inputs) inputs without a crash")
            await harness.stop()
        }
    }
#endif
