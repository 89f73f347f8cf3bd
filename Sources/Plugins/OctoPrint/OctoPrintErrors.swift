import PluginKit

/// The OctoPrint plugin's own errors (block 1000–1099). Each case is one code with one meaning;
/// code that handles an error matches the case.
enum OctoPrintError: PluginErrorCase {
    case notOperational(String)
    case unknownPrinter(String, known: [String])
    /// The printer (name, address) could not be reached, and why. It has the host's code: the
    /// kit's read cache and the live monitor treat it as any upstream that is down.
    case unreachable(String, String, String)
    case keyRefused(String)
    case notOctoPrint(String, String)
    case fileInUse(String)
    case wrongFileType(String)
    case refused(Int, String)
    case noWebcam(String)
    case noSnapshot(String)
    case webcam(String, String)
    case accessDenied(String)
    case noSlicer(String)
    case printerExists(String)

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

    var code: Int {
        switch self {
        case .notOperational: 1001
        case .unknownPrinter: 1002
        case .unreachable: RPCErrorCode.upstreamUnreachable
        case .keyRefused: 1004
        case .notOctoPrint: 1005
        case .fileInUse: 1006
        case .wrongFileType: 1007
        case .refused: 1008
        case .noSlicer: 1009
        case .printerExists: 1010
        case .noWebcam, .noSnapshot: 1011
        case .webcam: 1012
        case .accessDenied: 1013
        }
    }

    var message: String {
        switch self {
        case .notOperational(let printer):
            "Printer '\(printer)' is not connected (OctoPrint answered 409); connect it first: "
                + "assistantctl octoprint.connection.connect printer=\(printer)"
        case .unknownPrinter(let name, let known):
            known.isEmpty
                ? "No printer is set up; add one with assistantctl octoprint.printers.add name=… url=…"
                : "No printer named '\(name)' (printers: \(known.joined(separator: ", ")))"
        case .unreachable(let printer, let url, let reason): "Cannot reach printer '\(printer)' at \(url): \(reason)"
        case .keyRefused(let printer):
            "OctoPrint at printer '\(printer)' refused the API key (403); store the right one with assistantctl "
                + "octoprint.printers.update name=\(printer) and api_key on standard input, or get one with octoprint.printers.request_key"
        case .notOctoPrint(let url, let detail): "\(url) does not look like OctoPrint (\(detail))"
        case .fileInUse(let message): "OctoPrint refused: the file is in use (\(message))"
        case .wrongFileType(let message):
            "OctoPrint refused the file type (\(message)); it takes G-code (.gcode, .gco, .g) and, with a slicer, .stl"
        case .refused(let status, let message): "OctoPrint answered \(status): \(message)"
        case .noWebcam(let printer): "Printer '\(printer)' has no webcam configured in OctoPrint (Settings › Webcam)"
        case .noSnapshot(let webcam): "Webcam '\(webcam)' has no snapshot URL configured in OctoPrint"
        case .webcam(let url, let problem): "The webcam at \(url) \(problem)"
        case .accessDenied(let printer): "OctoPrint did not grant a key for '\(printer)': the request was denied or timed out"
        case .noSlicer(let slicer): "OctoPrint has no slicer '\(slicer)' configured (octoprint.slicing.slicers lists the configured ones)"
        case .printerExists(let name): "A printer named '\(name)' already exists; change it with octoprint.printers.update"
        }
    }

    var data: JSONValue? {
        switch self {
        case .notOperational(let printer), .keyRefused(let printer): ["printer": .string(printer)]
        case .unknownPrinter(let name, let known): ["printer": .string(name), "known": .array(known.map(JSONValue.string))]
        case .unreachable(let printer, let url, _): ["printer": .string(printer), "url": .string(url)]
        case .notOctoPrint(let url, _), .webcam(let url, _): ["url": .string(url)]
        case .refused(let status, _): ["status": .int(Int64(status))]
        case .noSlicer(let slicer): ["slicer": .string(slicer)]
        case .fileInUse, .wrongFileType, .noWebcam, .noSnapshot, .accessDenied, .printerExists: nil
        }
    }
}
