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
        try await FileOutput.write(Data("first".utf8), to: path, param: "out", overwrite: false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")

        struct Interrupted: Error {}
        await #expect(throws: Interrupted.self) {
            try await FileOutput.withFile(at: path, param: "out", overwrite: true) { writer in
                _ = try await writer.write(contentsOf: Array("half of the second".utf8))
                throw Interrupted()
            }
        }
        // The earlier file is untouched, and no temporary file is left beside it.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
    }

    /// Nothing is replaced unless the call says so; a symbolic link at the name is never
    /// followed, with or without overwrite; a new file is the user's alone.
    @Test func nothingIsOverwrittenUnaskedAndNoLinkIsFollowed() async throws {
        let directory = TemporaryDirectory()
        let kept = directory.write("kept.txt", "mine")
        do {
            try await FileOutput.write(Data("theirs".utf8), to: kept, param: "out", overwrite: false)
            Issue.record("replaced an existing file unasked")
        } catch let error as RPCError {
            #expect(error.code == -32602)
            #expect(error.data?["param"] == "out")
            #expect(error.message == "Invalid params: 'out' '\(kept)' exists; overwrite=true replaces it")
        }
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "mine")

        // A link to a file elsewhere (a shell's start-up file, say): refused without overwrite;
        // with it, the link itself is replaced and its target is untouched.
        let target = directory.write("bashrc", "export PS1=x\n")
        let link = directory.file("out.gcode")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        await #expect(throws: RPCError.self) { try await FileOutput.write(Data("G28".utf8), to: link, param: "out", overwrite: false) }
        try await FileOutput.write(Data("G28".utf8), to: link, param: "out", overwrite: true)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "export PS1=x\n")
        #expect(try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: link, encoding: .utf8) == "G28")

        // New files are 0600, whatever the umask.
        let fresh = directory.file("fresh.bin")
        try await FileOutput.write(Data("x".utf8), to: fresh, param: "out", overwrite: false)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "mode \(String(mode, radix: 8))")

        // A writer that needs a file name of its own (Cairo): placed without replacing.
        let temporary = try FileOutput.temporaryFile(beside: kept)
        #expect(throws: RPCError.self) { try FileOutput.place(temporary, at: kept, param: "path", overwrite: false) }
        #expect(!FileManager.default.fileExists(atPath: temporary), "the temporary file is gone")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["bashrc", "fresh.bin", "kept.txt", "out.gcode"])
    }

    @Test func aMissingFolderOrFileIsABadParameterNamingIt() async throws {
        let directory = TemporaryDirectory()
        do {
            try await FileOutput.write(Data("x".utf8), to: directory.file("no/such/folder/out.bin"), param: "out", overwrite: false)
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
