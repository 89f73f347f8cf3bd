import AssistantTesting
import Foundation
import HostCore
import NIOCore
import Testing

@Suite(.stopsTestHosts)
struct FileHelperTests {
    @Test func outputAppearsWholeOrNotAtAll() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("out.bin")
        try await FileOutput.write(Data("first".utf8), to: path, param: "out")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")

        struct Interrupted: Error {}
        await #expect(throws: Interrupted.self) {
            try await FileOutput.withFile(at: path, param: "out") { writer in
                _ = try await writer.write(contentsOf: Array("half of the second".utf8))
                throw Interrupted()
            }
        }
        // The earlier file is untouched, and no temporary file is left beside it.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
    }

    @Test func aMissingFolderOrFileIsABadParameterNamingIt() async throws {
        let directory = TemporaryDirectory()
        do {
            try await FileOutput.write(Data("x".utf8), to: directory.file("no/such/folder/out.bin"), param: "out")
            Issue.record("wrote into a missing folder")
        } catch let error as RPCError {
            #expect(error.code == -32602)
            #expect(error.data?["param"] == "out")
            #expect(error.message.contains("does not exist"))
        }
        for (path, reason) in [(directory.file("gone.gcode"), "no such file or folder"), (directory.path, "is not a regular file")] {
            do {
                _ = try await FileInput.withChunks(of: path, param: "file") { size, _ in size }
                Issue.record("read \(path)")
            } catch let error as RPCError {
                #expect(error.code == -32602)
                #expect(error.data?["param"] == "file")
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
    }

    @Test func chunksCoverTheWholeFile() async throws {
        let directory = TemporaryDirectory()
        let bytes = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = directory.file("in.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (size, read) = try await FileInput.withChunks(of: path, param: "file", chunkLength: 64 * 1024) { size, chunks in
            var read: [UInt8] = []
            for try await chunk in chunks { read += chunk.readableBytesView }
            return (size, read)
        }
        #expect(size == 700_000)
        #expect(read == bytes)
    }

    @Test func blockingWorkRunsOffTheCooperativePool() async throws {
        let value = try await runBlocking { Thread.isMainThread ? -1 : 42 }
        #expect(value == 42)
        struct Failed: Error {}
        await #expect(throws: Failed.self) { try await runBlocking { () throws -> Int in throw Failed() } }
    }
}
