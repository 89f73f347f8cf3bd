import PluginKit

enum OctoPrintManifest {

    typealias Command = PluginCommand<OctoPrintService>

    static var custom: [Command] {
        func c<Result: CallResult>(
            _ name: String, _ summary: String, _ params: [any ParamDeclaration], result: JSONSchema, example: String? = nil,
            timeout: Duration = .seconds(120), effect: CommandEffect,
            use method: @escaping @Sendable (OctoPrintService) -> @Sendable (Params) async throws -> Result
        ) -> Command {
            Command(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect, use: method)
        }
        func c<Result: CallResult>(
            _ name: String, _ summary: String, _ params: [any ParamDeclaration], result: JSONSchema, example: String? = nil,
            timeout: Duration = .seconds(120), effect: CommandEffect,
            use method: @escaping @Sendable (OctoPrintService) -> @Sendable (Params, CallContext) async throws -> Result
        ) -> Command {
            Command(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect, use: method)
        }
        func c<Result: CallResult>(
            _ name: String, _ summary: String, _ params: [any ParamDeclaration], result: JSONSchema, example: String? = nil,
            timeout: Duration = .seconds(120), effect: CommandEffect,
            run: @escaping @Sendable (OctoPrintService, Params, CallContext) async throws -> Result
        ) -> Command {
            Command(name, summary, params: params, result: result, example: example, timeout: timeout, effect: effect, typed: run)
        }
        typealias P = OctoPrintParams
        let connectionParams = P.connection
        return [
            c(
                "printers.add", "Add a printer after checking it is OctoPrint and the key works",
                [P.newPrinter, P.url, P.apiKey] + connectionParams, result: OctoPrintSchemas.added,
                example: "assistantctl octoprint.printers.add name=prusa url=http://octopi.local   # asks for the API key unless the vault has it",
                effect: .write, use: OctoPrintService.printersAdd
            ),
            c(
                "printers.request_key", "Ask OctoPrint for an application key (approve it in OctoPrint's web interface), then add the printer",
                [P.keyPrinter, P.keyURL, P.approver, P.app, P.approvalTimeout] + connectionParams, result: OctoPrintSchemas.granted,
                example: "assistantctl octoprint.printers.request_key name=mk3 url=http://octopi.local", timeout: .seconds(3700),
                effect: .write, use: OctoPrintService.requestKey
            ),
            c(
                "discover", "Find OctoPrint servers on the LAN (DNS-SD _octoprint._tcp over mDNS)",
                [P.listenTimeout, P.interface], result: OctoPrintSchemas.discovered, example: "assistantctl octoprint.discover",
                effect: .read,
                run: { _, params, _ in
                    let found = try await Discovery.browse(
                        interface: params[P.interface], timeout: .milliseconds(Int64(params[P.listenTimeout] * 1000)))
                    return JSONValue.object(["printers": .array(found)])
                }
            ),
            c(
                "printers.list", "The printers", [], result: OctoPrintSchemas.printers,
                effect: .read, run: { octoprint, _, _ in PrinterList(printers: try await octoprint.printers()) }
            )
            .view(
                ResultView(
                    rows: "printers",
                    columns: [
                        .init("name", "PRINTER"), .init("state", "STATE"), .init("url", "URL"), .init("default", "DEFAULT", optional: true),
                        .init("problem", "PROBLEM", optional: true),
                    ])),
            c(
                "printers.update", "Change a printer's address or credentials (checked before saving)",
                [P.printerName, P.newURL, P.newAPIKey] + connectionParams, result: OctoPrintSchemas.added, effect: .write,
                use: OctoPrintService.printersUpdate
            ),
            c(
                "printers.remove", "Forget a printer and its stored credentials", [P.printerName],
                result: OctoPrintSchemas.removed, effect: .destructive, use: OctoPrintService.printersRemove
            ).confirm("Forget the printer {name} and its stored credentials?"),
            c(
                "printers.default", "Make a printer the default", [P.printerName],
                result: OctoPrintSchemas.printer, effect: .write, use: OctoPrintService.printersDefault
            ),
            c(
                "temperature.chart", "Draw the last minutes of each heater's temperature (actual and target) as a PNG or PDF",
                [OctoPrintParams.printer, OctoPrintParams.chartMinutes, OctoPrintParams.chartPath], result: OctoPrintSchemas.temperatureChart,
                example: "assistantctl octoprint.temperature.chart minutes=60 path=temps.png", effect: .write, use: OctoPrintService.temperatureChart
            ).writesFiles(),
            c(
                "status", "State flags, temperatures, job and progress in one call", [OctoPrintParams.printer],
                result: OctoPrintSchemas.status,
                example: "assistantctl octoprint.status", effect: .read, use: OctoPrintService.status
            )
            .view(
                ResultView(fields: [
                    .init("printer", "Printer"), .init("state", "State"), .init("job.file.name", "File"),
                    .init("progress.completion", "Progress", .bar), .init("progress.printTimeLeft", "Time left", .seconds),
                    .init("progress.printTime", "Printing for", .seconds), .init("temperatures", "Temperatures", .temperatures),
                ])),
            c(
                "files.upload", "Upload a file from disk (streamed, with progress); optionally select and print it",
                [
                    OctoPrintParams.printer, P.file, OctoPrintParams.location, P.uploadFolder, P.select, P.print,
                ], result: OctoPrintSchemas.uploaded,
                example: "assistantctl octoprint.files.upload file=benchy.gcode print=true", timeout: .seconds(3600), effect: .destructive,
                use: OctoPrintService.upload
            ).confirm("Upload {file} to[ {printer}'s] OctoPrint[ as {path}][ (then select it: {select})][ (then print it: {print})]?"),
            c(
                "files.mkdir", "Create a folder",
                [
                    OctoPrintParams.printer, P.folderName, P.parentFolder,
                ], result: OctoPrintSchemas.folder, effect: .write, use: OctoPrintService.mkdir
            ),
            c(
                "files.download", "Download a file from OctoPrint to disk",
                [
                    OctoPrintParams.printer, OctoPrintParams.filePath, P.out,
                ], result: OctoPrintSchemas.saved, timeout: .seconds(3600),
                effect: .write,
                run: { octoprint, params, _ in
                    try await octoprint.download(
                        params,
                        path:
                            "/downloads/files/\(params[OctoPrintParams.location])/"
                            + REST.encoded(try REST.required(params, OctoPrintParams.filePath))
                    )
                }
            ).writesFiles(),
            c(
                "timelapse.download", "Download a rendered timelapse",
                [
                    OctoPrintParams.printer, P.fileName, P.out,
                ], result: OctoPrintSchemas.saved, timeout: .seconds(3600),
                effect: .write,
                run: { octoprint, params, _ in
                    try await octoprint.download(params, path: "/downloads/timelapse/\(REST.encoded(try REST.required(params, P.fileName)))")
                }
            ).writesFiles(),
            c(
                "webcam.info", "The printer's webcams (pick one by name)", [OctoPrintParams.printer, P.webcam],
                result: OctoPrintSchemas.webcams, effect: .read, use: OctoPrintService.webcamInfo
            ),
            c(
                "webcam.snapshot", "Save a JPEG snapshot",
                [
                    OctoPrintParams.printer, P.jpegOut, P.firstWebcam,
                ], result: OctoPrintSchemas.snapshot,
                example: "assistantctl octoprint.webcam.snapshot out=now.jpg", effect: .write, use: OctoPrintService.webcamSnapshot
            ).writesFiles(),
            c(
                "webcam.frames", "Save frames from the MJPEG stream",
                [
                    OctoPrintParams.printer, P.outDir, P.count, P.firstWebcam,
                ], result: OctoPrintSchemas.frames, effect: .write, use: OctoPrintService.webcamFrames
            ).writesFiles().confirm("Replace the frames already in {out_dir}?"),
            c(
                "logs.download", "Download a log file",
                [
                    OctoPrintParams.printer, P.logName, P.out,
                ], result: OctoPrintSchemas.saved,
                effect: .write,
                run: { octoprint, params, _ in
                    try await octoprint.download(params, path: "/downloads/logs/\(REST.encoded(try REST.required(params, P.logName)))")
                }
            ).writesFiles(),
        ]
    }

    /// Commands without a hand-written example get one built from their required parameters.
    static func withExample(_ command: Command) -> Command {
        command.mapDescriptor { d in
            guard d.example == nil else { return }
            // A secret is never on the command line: assistantctl asks for it (or reads stdin).
            let args = d.params.filter { $0.required && $0.type != .secret }.map { p -> String in
                switch p.type {
                case .path: "\(p.name)=\(p.name == "out" ? "out.file" : (p.name == "out_dir" ? "frames" : "file.gcode"))"
                case .oneOf(let choices): "\(p.name)=\(choices.first ?? "")"
                case .integer(let min, _): "\(p.name)=\(min ?? 1)"
                // Within the default limits: a bed to 120 °C, a chamber to 80 °C, a tool to 300 °C.
                case .number where p.name == "temperature": "temperature=\(d.name.hasPrefix("bed.") ? 60 : d.name.hasPrefix("chamber.") ? 40 : 200)"
                case .number: "\(p.name)=1"
                case .object: "'\(p.name)={\"name\":\"example\"}'"
                case .array: "'\(p.name)=[\"G28\"]'"
                // Slicing takes a model; everything else on OctoPrint's storage is G-code.
                default: "\(p.name)=\(p.name == "path" ? (d.name == "files.slice" ? "part.stl" : "part.gcode") : "example")"
                }
            }
            d.example = (["assistantctl", "octoprint.\(d.name)"] + args).joined(separator: " ")
        }
    }

    /// Every command: the hand-written ones and one per REST catalogue entry.
    static var commands: [Command] {
        (custom
            + RESTCatalog.all.map { r in
                Command(
                    r.name, r.summary, params: [OctoPrintParams.printer] + r.params,
                    result: r.result ?? OctoPrintSchemas.answer(r.method.rawValue, r.summary), example: r.example, effect: r.effect
                ) { octoprint, params, _ in try await octoprint.rest(r, params) }
                .effectReason(RESTCatalog.writes[r.name])
                .mapDescriptor {
                    $0.personOnly = r.personOnly
                    $0.confirm = RESTCatalog.questions[r.name].map { ConfirmSentence($0) }
                }
            }).map(withExample)
    }

    static let jobs: [PluginJob<OctoPrintService>] = [
        PluginJob(
            "poll", "Reads job and printer state of printers whose push connection is down",
            schedule: .every(.seconds(15)), timeout: .seconds(60)
        ) { try await $0.pollWithoutPush() }
    ]

    static var info: PluginInfo {
        PluginInfo(
            id: "octoprint", version: "0.1.0", summary: "3D printers behind OctoPrint: every REST function",
            topics: OctoPrintTopic.self, errors: OctoPrintError.block,
            vaultNames: ["<printer>/api_key", "<printer>/basic_password"],
            options: OctoPrintConfig.self,
            resources: [
                ResourceDeclaration(
                    uri: "assistant://octoprint/{printer}/status", name: "Printer status", description: "State, temperatures and the job",
                    reads: [.init(method: "octoprint.status", params: ["printer": "{printer}"])], topics: ["octoprint.print.*"]),
                ResourceDeclaration(
                    uri: "assistant://octoprint/{printer}/webcam", name: "Printer webcam snapshot", description: "A JPEG from the webcam now",
                    mimeType: "image/jpeg", reads: [.init(method: "octoprint.webcam.snapshot", params: ["printer": "{printer}", "out": "{file}"])],
                    topics: ["octoprint.print.*"]),
            ])
    }
}
