import Foundation
import PictureKit
import PluginKit

// Typed answers of the printer, status and webcam commands, written straight into the reply.
// What OctoPrint itself says (its version, state, temperatures, job) is carried as OctoPrint's
// own JSON: those documents belong to OctoPrint, and their schemas say so.

extension Printer: Encodable, CallResult {
    enum CodingKeys: String, CodingKey {
        case name, url, state, problem
        case caFile = "ca_file"
        case basicUser = "basic_user"
        case isDefault = "default"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        let problem = self.problem
        try o.encode(name, forKey: .name)
        try o.encode(url, forKey: .url)
        try o.encode(caFile, forKey: .caFile)
        try o.encode(basicUser, forKey: .basicUser)
        try o.encode(isDefault, forKey: .isDefault)
        try o.encode(problem == nil ? "ready" : "failed", forKey: .state)
        try o.encode(problem, forKey: .problem)
    }
}

struct PrinterList: Encodable, CallResult {
    let printers: [Printer]
}

/// `printers.add`, `printers.update`: the printer as saved, and OctoPrint's `/api/version`.
struct PrinterSaved: Encodable, CallResult {
    let printer: Printer
    let octoprint: JSONValue
}

/// `octoprint.status`: connection, printer and job in one answer.
struct PrinterStatus: Encodable, CallResult {
    let printer: String
    let state: JSONValue
    let connected: Bool
    let flags: JSONValue
    let temperatures: JSONValue
    let job: JSONValue
    let progress: JSONValue
    let connection: JSONValue
}

struct SnapshotSaved: Encodable, CallResult {
    let path: String
    let bytes: Int
    let webcam: String
}

struct FramesSaved: Encodable, CallResult {
    let files: [String]
    let webcam: String
}

/// `printers.request_key`: the key was granted and the printer saved.
struct PrinterGranted: Encodable, CallResult {
    let printer: Printer
    let octoprint: JSONValue
    let granted = true
}

/// A download written to disk.
struct FileSaved: Encodable, CallResult {
    let path: String
    let bytes: Int64
}

/// `octoprint.temperature.chart`: the picture written and what it shows.
struct TemperatureChartSaved: Encodable, CallResult {
    /// Where the readings came from: the live monitor's, or OctoPrint's own history.
    enum Source: String, Encodable {
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
}
