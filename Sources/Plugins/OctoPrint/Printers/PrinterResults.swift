import Foundation
import PictureKit
import PluginKit

// Typed answers of the printer, status and webcam commands, written straight into the reply.
// What OctoPrint itself says (its version, state, temperatures, job) is carried as OctoPrint's
// own JSON: those documents belong to OctoPrint, and their schemas say so.

extension Printer: ResultObject, CallResult {
    static let members = ResultMembers<Self>(
        .field("name", \.name), .field("url", \.url), .field("ca_file", \.caFile), .field("basic_user", \.basicUser),
        .field("default", \.isDefault), .omittedWhenNil("stream_url", \.streamURL, "the webcam's stream, set for this printer"),
        .omittedWhenNil("snapshot_url", \.snapshotURL, "the webcam's snapshot, set for this printer"), .flattened(\.health))

    /// Its state and problem, from one look at its CA file (`problem` reads the file system).
    var health: PrinterHealth { PrinterHealth(problem: problem) }
}

struct PrinterHealth: ResultObject, Sendable {
    enum State: String, CaseIterable, Sendable, Encodable, ResultDescribing {
        case ready, failed
    }

    let problem: String?
    var state: State { problem == nil ? .ready : .failed }

    static let members = ResultMembers<Self>(.field("state", \.state), .field("problem", \.problem))
}

struct PrinterList: ResultObject, CallResult {
    let printers: [Printer]

    static let members = ResultMembers<Self>(.field("printers", \.printers))
}

/// `printers.add`, `printers.update`: the printer as saved, and OctoPrint's `/api/version`.
struct PrinterSaved: ResultObject, CallResult {
    let printer: Printer
    let octoprint: JSONValue

    static let members = ResultMembers<Self>(.field("printer", \.printer), .field("octoprint", \.octoprint, OctoPrintDocuments.version))
}

/// `octoprint.status`: connection, printer and job in one answer; the rest is OctoPrint's own.
struct PrinterStatus: ResultObject, CallResult {
    let printer: String
    let state: JSONValue
    let connected: Bool
    let flags: JSONValue
    let temperatures: JSONValue
    let job: JSONValue
    let progress: JSONValue
    let connection: JSONValue

    static let members = ResultMembers<Self>(
        .field("printer", \.printer), .field("state", \.state, JSONSchema.string.nullable, "OctoPrint's state text (Operational, Printing, …)"),
        .field("connected", \.connected),
        .field("flags", \.flags, JSONSchema.map(.boolean).nullable, "printing, paused, error, ready, … (null when disconnected)"),
        .field("temperatures", \.temperatures, JSONSchema.anyObject("heaters by name: {actual, target, offset}").nullable),
        .field("job", \.job, JSONSchema.anyObject("OctoPrint's job: file, estimatedPrintTime, filament, …").nullable),
        .field("progress", \.progress, JSONSchema.anyObject("completion (%), printTime and printTimeLeft (s), filepos").nullable),
        .field("connection", \.connection, JSONSchema.anyObject("port, baudrate, printerProfile, state").nullable))
}

struct SnapshotSaved: ResultObject, CallResult {
    let path: String
    let bytes: Int
    let webcam: String

    static let members = ResultMembers<Self>(.field("path", \.path), .field("bytes", \.bytes), .field("webcam", \.webcam))
}

struct FramesSaved: ResultObject, CallResult {
    let files: [String]
    let webcam: String

    static let members = ResultMembers<Self>(.field("files", \.files), .field("webcam", \.webcam))
}

/// `printers.request_key`: the key was granted and the printer saved.
struct PrinterGranted: ResultObject, CallResult {
    let printer: Printer
    let octoprint: JSONValue
    var granted: Bool { true }

    static let members = ResultMembers<Self>(
        .field("printer", \.printer), .field("octoprint", \.octoprint, OctoPrintDocuments.version), .field("granted", \.granted))
}

/// A download written to disk.
struct FileSaved: ResultObject, CallResult {
    let path: String
    let bytes: Int64

    static let members = ResultMembers<Self>(.field("path", \.path), .field("bytes", \.bytes))
}

/// `octoprint.temperature.chart`: the picture written and what it shows.
struct TemperatureChartSaved: ResultObject, CallResult {
    enum Source: String, CaseIterable, Sendable, Encodable, ResultDescribing {
        case monitor, octoprint
    }

    let path: String
    let bytes: Int
    let printer: String
    let format: Picture.Format
    let readings: Int
    let heaters: [String]
    let from, to: String
    let source: Source

    static let members = ResultMembers<Self>(
        .field("path", \.path), .field("bytes", \.bytes), .field("printer", \.printer), .field("format", \.format, .enumeration(["png", "pdf"])),
        .field("readings", \.readings), .field("heaters", \.heaters), .field("from", \.from, .dateTime), .field("to", \.to, .dateTime),
        .field("source", \.source, "the live monitor's readings, or OctoPrint's own history"))
}
