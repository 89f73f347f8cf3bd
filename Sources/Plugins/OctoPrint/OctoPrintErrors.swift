import HostCore

/// The OctoPrint plugin's error codes (block 1000–1099, listed in the README).
enum OctoPrintError {
    /// Every code this plugin sends, in its block (checked when the plugin registers).
    static let block = ErrorBlock(
        1000...1099,
        codes: [
            1001: "the printer is not connected (OctoPrint answered 409)",
            1002: "no printer of that name",
            1004: "OctoPrint refused the API key (403)",
            1005: "the address is not OctoPrint",
            1006: "the file is in use",
            1007: "OctoPrint refused the file type",
            1008: "OctoPrint refused the request",
            1009: "no such slicer",
            1010: "a printer of that name exists",
            1011: "the printer has no webcam or no snapshot URL",
            1012: "the webcam could not be read",
            1013: "OctoPrint did not grant a key",
        ])

    static func notOperational(_ printer: String) -> RPCError {
        RPCError(
            code: 1001,
            message:
                "Printer '\(printer)' is not connected (OctoPrint answered 409); connect it first: assistantctl octoprint.connection.connect printer=\(printer)",
            data: ["printer": .string(printer)])
    }
    static func unknownPrinter(_ name: String, known: [String]) -> RPCError {
        RPCError(
            code: 1002,
            message: known.isEmpty
                ? "No printer is set up; add one with assistantctl octoprint.printers.add name=… url=…"
                : "No printer named '\(name)' (printers: \(known.joined(separator: ", ")))",
            data: ["printer": .string(name), "known": .array(known.map(JSONValue.string))])
    }
    static func whichPrinter(_ known: [String]) -> RPCError {
        RPCError.invalidParam(
            "printer",
            "is needed: there are several printers (\(known.joined(separator: ", "))) and no default; or set one with octoprint.printers.default")
    }
    static func unreachable(_ printer: String, _ url: String, _ reason: String) -> RPCError {
        RPCError(
            code: RPCErrorCode.upstreamUnreachable, message: "Cannot reach printer '\(printer)' at \(url): \(reason)",
            data: ["printer": .string(printer), "url": .string(url)])
    }
    static func keyRefused(_ printer: String) -> RPCError {
        RPCError(
            code: 1004,
            message:
                "OctoPrint at printer '\(printer)' refused the API key (403); store the right one with assistantctl octoprint.printers.update name=\(printer) and api_key on standard input, or get one with octoprint.printers.request_key",
            data: ["printer": .string(printer)])
    }
    static func notOctoPrint(_ url: String, _ detail: String) -> RPCError {
        RPCError(code: 1005, message: "\(url) does not look like OctoPrint (\(detail))", data: ["url": .string(url)])
    }
    static func fileInUse(_ message: String) -> RPCError {
        RPCError(code: 1006, message: "OctoPrint refused: the file is in use (\(message))")
    }
    static func wrongFileType(_ message: String) -> RPCError {
        RPCError(code: 1007, message: "OctoPrint refused the file type (\(message)); it takes G-code (.gcode, .gco, .g) and, with a slicer, .stl")
    }
    static func refused(_ status: Int, _ message: String) -> RPCError {
        RPCError(code: 1008, message: "OctoPrint answered \(status): \(message)", data: ["status": .int(Int64(status))])
    }
    static func noWebcam(_ printer: String) -> RPCError {
        RPCError(code: 1011, message: "Printer '\(printer)' has no webcam configured in OctoPrint (Settings › Webcam)")
    }
    static func noSnapshot(_ webcam: String) -> RPCError {
        RPCError(code: 1011, message: "Webcam '\(webcam)' has no snapshot URL configured in OctoPrint")
    }
    static func webcam(_ url: String, _ problem: String) -> RPCError {
        RPCError(code: 1012, message: "The webcam at \(url) \(problem)", data: ["url": .string(url)])
    }
    static func accessDenied(_ printer: String) -> RPCError {
        RPCError(code: 1013, message: "OctoPrint did not grant a key for '\(printer)': the request was denied or timed out")
    }
    static func noSlicer(_ slicer: String) -> RPCError {
        RPCError(
            code: 1009, message: "OctoPrint has no slicer '\(slicer)' configured (octoprint.slicing.slicers lists the configured ones)",
            data: ["slicer": .string(slicer)])
    }
    static func printerExists(_ name: String) -> RPCError {
        RPCError(code: 1010, message: "A printer named '\(name)' already exists; change it with octoprint.printers.update")
    }
}
