import AssistantTesting
import Dispatch
import Foundation
import NIOConcurrencyHelpers

// libFuzzer's entry point: arbitrary bytes through the daemon's line framing, JSON parser and
// dispatcher (`RPCFuzzHarness`). Built by `scripts/fuzz` with `-sanitize=fuzzer,address` and
// `-D FUZZING`; without FUZZING this file has a `main` that replays files (the corpus) through
// the same path, so the target also builds and runs in a plain `swift build`.

/// One host for the whole run: libFuzzer calls in a loop, on one thread.
let harness: RPCFuzzHarness = blocking { try! await RPCFuzzHarness() }

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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = blocking { await harness.feed(bytes).count }
    return 0
}

#if !FUZZING
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
