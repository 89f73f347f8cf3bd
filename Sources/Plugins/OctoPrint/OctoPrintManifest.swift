import HostCore

enum OctoPrintManifest {
    static let printerParam = ParamSpec("printer", .string, help: "printer name (optional with one printer or a default)")

    static var custom: [CommandDescriptor] {
        func c(_ name: String, _ summary: String, _ params: [ParamSpec], result: String, example: String? = nil, timeout: Duration = .seconds(120)) -> CommandDescriptor {
            CommandDescriptor(name: "octoprint.\(name)", summary: summary, params: params, result: result, example: example, timeout: timeout)
        }
        let connectionParams = [
            ParamSpec("ca_file", .path, help: "PEM file of a private CA for an https:// OctoPrint"),
            ParamSpec("basic_user", .string, help: "user for HTTP basic auth in front of OctoPrint"),
            ParamSpec("basic_password", .secret, help: "password for HTTP basic auth (stored in the vault)"),
        ]
        return [
            c("printers.add", "Add a printer after checking it is OctoPrint and the key works", [
                ParamSpec("name", .string, required: true, help: "a short name, e.g. prusa"),
                ParamSpec("url", .string, required: true, help: "OctoPrint's address, e.g. http://octopi.local"),
                ParamSpec("api_key", .secret, help: "API key (stored in the vault as octoprint/<name>/api_key; omitted: read from there)"),
            ] + connectionParams, result: "the printer and OctoPrint's version",
              example: "assistantctl octoprint.printers.add name=prusa url=http://octopi.local   # the key is read from stdin"),
            c("printers.request_key", "Ask OctoPrint for an application key (approve it in OctoPrint's web interface), then add the printer", [
                ParamSpec("name", .string, required: true, help: "a short name for the printer"),
                ParamSpec("url", .string, required: true, help: "OctoPrint's address"),
                ParamSpec("user", .string, help: "the OctoPrint user who should approve (default: any)"),
                ParamSpec("app", .string, default: "assistantd", help: "the application name OctoPrint shows"),
                ParamSpec("timeout_s", .integer(min: 10, max: 3600), default: 300, help: "how long to wait for the approval"),
            ] + connectionParams, result: "the printer and OctoPrint's version",
              example: "assistantctl octoprint.printers.request_key name=mk3 url=http://octopi.local", timeout: .seconds(3700)),
            c("discover", "Find OctoPrint servers on the LAN (DNS-SD _octoprint._tcp over mDNS)", [
                ParamSpec("timeout_s", .number(min: 0.5, max: 30), default: 3, help: "how long to listen"),
                ParamSpec("interface", .string, help: "IPv4 address of the interface to ask on (default: the system's choice)"),
            ], result: "{printers: [{name, url, version, api, uuid, …}]}", example: "assistantctl octoprint.discover"),
            c("printers.list", "The printers", [], result: "{printers: [...]}"),
            c("printers.update", "Change a printer's address or credentials (checked before saving)", [
                ParamSpec("name", .string, required: true, help: "printer name"),
                ParamSpec("url", .string, help: "new address"),
                ParamSpec("api_key", .secret, help: "new API key"),
            ] + connectionParams, result: "the printer"),
            c("printers.remove", "Forget a printer and its stored credentials", [ParamSpec("name", .string, required: true, help: "printer name")],
              result: "{removed: name}"),
            c("printers.default", "Make a printer the default", [ParamSpec("name", .string, required: true, help: "printer name")],
              result: "the printer"),
            c("status", "State flags, temperatures, job and progress in one call", [printerParam], result: "{state, flags, temperatures, job, progress}",
              example: "assistantctl octoprint.status"),
            c("files.upload", "Upload a file from disk (streamed, with progress); optionally select and print it", [
                printerParam, ParamSpec("file", .path, required: true, help: "local file to upload"), REST.location,
                ParamSpec("path", .string, help: "folder on OctoPrint to upload into"),
                ParamSpec("select", .boolean, default: false, help: "select it after upload"),
                ParamSpec("print", .boolean, default: false, help: "start printing it after upload"),
            ], result: "OctoPrint's answer: {done, files: {local: {name, path, …}}}",
              example: "assistantctl octoprint.files.upload file=benchy.gcode print=true", timeout: .seconds(3600)),
            c("files.mkdir", "Create a folder", [printerParam, ParamSpec("name", .string, required: true, help: "folder name"),
                ParamSpec("path", .string, help: "parent folder"), ], result: "OctoPrint's answer"),
            c("files.download", "Download a file from OctoPrint to disk", [printerParam, REST.filePath,
                ParamSpec("out", .path, required: true, help: "where to save it")], result: "{path, bytes}", timeout: .seconds(3600)),
            c("timelapse.download", "Download a rendered timelapse", [printerParam, ParamSpec("name", .string, required: true, help: "file name"),
                ParamSpec("out", .path, required: true, help: "where to save it")], result: "{path, bytes}", timeout: .seconds(3600)),
            c("webcam.info", "The printer's webcams (pick one by name)", [printerParam, ParamSpec("name", .string, help: "webcam name")],
              result: "{webcams: [{name, display_name, snapshot_url, stream_url, …}]} or one webcam"),
            c("webcam.snapshot", "Save a JPEG snapshot", [printerParam, ParamSpec("out", .path, required: true, help: "JPEG file to write"),
                ParamSpec("name", .string, help: "webcam name (default: the first)")], result: "{path, bytes, webcam}",
              example: "assistantctl octoprint.webcam.snapshot out=now.jpg"),
            c("webcam.frames", "Save frames from the MJPEG stream", [printerParam, ParamSpec("out_dir", .path, required: true, help: "folder for frame-0001.jpg, …"),
                ParamSpec("count", .integer(min: 1, max: 1000), default: 10, help: "how many frames"),
                ParamSpec("name", .string, help: "webcam name (default: the first)")], result: "{files: [...], webcam}"),
            c("logs.download", "Download a log file", [printerParam, ParamSpec("name", .string, required: true, help: "log file name"),
                ParamSpec("out", .path, required: true, help: "where to save it")], result: "{path, bytes}"),
        ]
    }

    /// Commands without a hand-written example get one built from their required parameters.
    static func withExample(_ c: CommandDescriptor) -> CommandDescriptor {
        guard c.example == nil else { return c }
        var d = c
        let args = c.params.filter(\.required).map { p -> String in
            switch p.type {
            case .path: "\(p.name)=\(p.name == "out" ? "out.file" : (p.name == "out_dir" ? "frames" : "file.gcode"))"
            case .oneOf(let choices): "\(p.name)=\(choices.first ?? "")"
            case .integer(let min, _): "\(p.name)=\(min ?? 1)"
            case .number: "\(p.name)=\(p.name == "temperature" ? "200" : "1")"
            case .object: "'\(p.name)={\"name\":\"example\"}'"
            case .array: "'\(p.name)=[\"G28\"]'"
            default: "\(p.name)=\(p.name == "path" ? "part.gcode" : "example")"
            }
        }
        d.example = (["assistantctl", c.name] + args).joined(separator: " ")
        return d
    }

    static var manifest: PluginManifest {
        PluginManifest(
            id: "octoprint", version: "0.1.0", summary: "3D printers behind OctoPrint: every REST function",
            commands: (custom + RESTCatalog.all.map { r in
                CommandDescriptor(name: "octoprint.\(r.name)", summary: r.summary, params: [printerParam] + r.params,
                                  result: r.method == .GET ? "OctoPrint's answer" : "OctoPrint's answer, or {ok: true}", example: r.example)
            }).map(withExample),
            jobs: [JobDescriptor(id: "poll", summary: "Reads job and printer state of printers whose push connection is down",
                                 schedule: .every(.seconds(15)), timeout: .seconds(60))],
            topics: [
                TopicDescriptor("octoprint.print.started", "a print started"),
                TopicDescriptor("octoprint.print.progress", "a print reached a milestone (progress_milestones, default 25/50/75 %)"),
                TopicDescriptor("octoprint.print.paused", "a print was paused"),
                TopicDescriptor("octoprint.print.resumed", "a print was resumed"),
                TopicDescriptor("octoprint.print.done", "a print finished (with its duration and a webcam snapshot)"),
                TopicDescriptor("octoprint.print.failed", "a print failed (with a webcam snapshot)"),
                TopicDescriptor("octoprint.print.cancelled", "a print was cancelled"),
                TopicDescriptor("octoprint.printer.error", "the printer reported an error"),
                TopicDescriptor("octoprint.printer.disconnected", "OctoPrint lost the printer"),
                TopicDescriptor("octoprint.printer.offline", "OctoPrint has been unreachable longer than offline_after_s"),
                TopicDescriptor("octoprint.bed.cooled", "after a print the bed is below bed_cooled_below"),
            ],
            vaultNames: ["<printer>/api_key", "<printer>/basic_password"],
            configOptions: [
                ConfigOption("max_tool_temp", .number(min: 0, max: 500), default: 300, help: "highest hotend target accepted, °C"),
                ConfigOption("max_bed_temp", .number(min: 0, max: 200), default: 120, help: "highest bed target accepted, °C"),
                ConfigOption("max_chamber_temp", .number(min: 0, max: 150), default: 80, help: "highest chamber target accepted, °C"),
                ConfigOption("progress_milestones", .array(of: .integer(min: 1, max: 99)), default: [25, 50, 75], help: "progress notices at these percentages"),
                ConfigOption("bed_cooled_below", .number(min: 0, max: 150), default: 40, help: "bed.cooled notice below this temperature after a print, °C"),
                ConfigOption("offline_after_s", .integer(min: 10, max: 86_400), default: 300, help: "printer.offline notice after this long unreachable"),
            ])
    }
}
