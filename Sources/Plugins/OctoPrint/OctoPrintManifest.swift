import PluginKit

enum OctoPrintManifest {

    typealias Command = PluginCommand<OctoPrintService>

    static var custom: [Command] {
        typealias P = OctoPrintParams
        let connectionParams = P.connection
        return [
            Command(
                "printers.add", "Add a printer after checking it is OctoPrint and the key works",
                params: [P.newPrinter, P.url, P.apiKey] + connectionParams,
                example: "assistantctl octoprint.printers.add name=prusa url=http://octopi.local   # asks for the API key unless the vault has it",
                effect: .write, use: OctoPrintService.printersAdd
            ).says("Added printer {printer.name}: {octoprint.text} at {printer.url}[; problem: {printer.problem}]"),
            Command(
                "printers.request_key", "Ask OctoPrint for an application key (approve it in OctoPrint's web interface), then add the printer",
                params: [P.keyPrinter, P.keyURL, P.approver, P.app, P.approvalTimeout] + connectionParams,
                example: "assistantctl octoprint.printers.request_key name=mk3 url=http://octopi.local", timeout: .seconds(3700),
                effect: .write, use: OctoPrintService.requestKey
            ).says("Got an API key and added printer {printer.name}: {octoprint.text} at {printer.url}[; problem: {printer.problem}]"),
            Command(
                "discover", "Find OctoPrint servers on the LAN (DNS-SD _octoprint._tcp over mDNS)",
                params: [P.listenTimeout, P.interface], result: OctoPrintDocuments.discovered, example: "assistantctl octoprint.discover",
                effect: .read,
                run: { _, params, _ in
                    let found = try await Discovery.browse(
                        interface: params[P.interface], timeout: .milliseconds(Int64(params[P.listenTimeout] * 1000)))
                    return JSONValue.object(["printers": .array(found)])
                }
            ),
            Command(
                "printers.list", "The printers", params: [],
                effect: .read, typed: { octoprint, _, _ in PrinterList(printers: try await octoprint.printers()) }
            )
            .view(
                ResultView(
                    rows: "printers",
                    columns: [
                        .init("name", "PRINTER"), .init("state", "STATE"), .init("url", "URL"), .init("default", "DEFAULT", optional: true),
                        .init("problem", "PROBLEM", optional: true),
                    ])),
            Command(
                "printers.update", "Change a printer's address or credentials (checked before saving)",
                params: [P.printerName, P.newURL, P.newAPIKey, P.streamURL, P.snapshotURL] + connectionParams, effect: .write,
                use: OctoPrintService.printersUpdate
            ).says("Changed printer {printer.name}: {octoprint.text} at {printer.url}[; problem: {printer.problem}]"),
            Command(
                "printers.remove", "Forget a printer and its stored credentials", params: [P.printerName], effect: .destructive,
                use: OctoPrintService.printersRemove
            ).says("Forgot the printer {removed} and its stored credentials").confirm("Forget the printer {name} and its stored credentials?"),
            Command(
                "printers.default", "Make a printer the default", params: [P.printerName], effect: .write, use: OctoPrintService.printersDefault
            ).says("{name} is now the default printer"),
            Command(
                "temperature.chart", "Draw the last minutes of each heater's temperature (actual and target) as a PNG or PDF",
                params: [OctoPrintParams.printer, OctoPrintParams.chartMinutes, OctoPrintParams.chartPath],
                example: "assistantctl octoprint.temperature.chart minutes=60 path=temps.png", effect: .write, use: OctoPrintService.temperatureChart
            ).says(
                "Drew the temperatures of {heaters:list}, {from:time}–{to:time}, to {path} ({bytes:bytes})",
                "Drew the temperatures of {printer} to {path} ({bytes:bytes})"
            ).writesFiles(),
            Command(
                "gcode", "Send G-code commands to the printer and wait (within wait_s) for its answers, up to each command's ok",
                params: [OctoPrintParams.printer, P.commands, P.gcodeWait], example: "assistantctl octoprint.gcode 'commands=[\"M115\"]'",
                effect: .destructive, use: OctoPrintService.gcode
            ).says("Sent {commands:list} to the printer {printer}[, which answered each{complete:if}]").confirm(
                "Send {commands} to the printer[ {printer}]?"),
            Command(
                "terminal", "The printer's serial log as the live monitor saw it: the last lines sent and received (at most 1 000 kept)",
                params: [OctoPrintParams.printer, P.terminalLines], example: "assistantctl octoprint.terminal lines=20", effect: .read,
                use: OctoPrintService.terminal
            )
            .view(ResultView(rows: "lines", columns: [.init("time", "TIME", .time), .init("direction", "DIR"), .init("text", "LINE")])),
            Command(
                "status", "State flags, temperatures, job and progress in one call", params: [OctoPrintParams.printer],
                example: "assistantctl octoprint.status", effect: .read, use: OctoPrintService.status
            )
            .view(
                ResultView(fields: [
                    .init("printer", "Printer"), .init("state", "State"), .init("job.file.name", "File"),
                    .init("progress.completion", "Progress", .bar), .init("progress.printTimeLeft", "Time left", .seconds),
                    .init("progress.printTime", "Printing for", .seconds), .init("temperatures", "Temperatures", .temperatures),
                ])),
            Command(
                "files.upload", "Upload a file from disk or from an http(s) address (streamed, with progress); optionally select and print it",
                params: [
                    OctoPrintParams.printer, P.uploadFile, P.uploadURL, OctoPrintParams.location, P.uploadFolder, P.select, P.print,
                ], result: OctoPrintDocuments.uploaded,
                example: "assistantctl octoprint.files.upload file=benchy.gcode print=true", timeout: .seconds(3600), effect: .destructive,
                use: OctoPrintService.upload
            ).says(
                "Uploaded {file}[ into {path}][ on {printer}][ (selected: {select})][ (printing: {print})]",
                "Uploaded the file from {url}[ into {path}][ on {printer}][ (selected: {select})][ (printing: {print})]",
                "Uploaded the file[ into {path}][ on {printer}]"
            ).confirm(
                "Upload {file} to[ {printer}'s] OctoPrint[ as {path}][ (then select it: {select})][ (then print it: {print})]?",
                "Fetch {url} and upload it to[ {printer}'s] OctoPrint[ as {path}][ (then select it: {select})][ (then print it: {print})]?",
                "Upload the file to[ {printer}'s] OctoPrint?"
            ).checking(.exactlyOne(P.uploadFile, P.uploadURL)),
            Command(
                "files.mkdir", "Create a folder",
                params: [
                    OctoPrintParams.printer, P.folderName, P.parentFolder,
                ], result: OctoPrintDocuments.folder, effect: .write, use: OctoPrintService.mkdir
            ).says("Created the folder {name}[ in {path}][ on {printer}]"),
            Command(
                "files.download", "Download a file from OctoPrint to disk",
                params: [
                    OctoPrintParams.printer, OctoPrintParams.filePath, P.out,
                ], timeout: .seconds(3600),
                effect: .write,
                typed: { octoprint, params, _ in
                    try await octoprint.download(
                        params,
                        path:
                            "/downloads/files/\(params[OctoPrintParams.location])/"
                            + REST.encoded(try REST.required(params, OctoPrintParams.filePath))
                    )
                }
            ).says("Downloaded to {path} ({bytes:bytes})[ from {printer}]").writesFiles(),
            Command(
                "timelapse.download", "Download a rendered timelapse",
                params: [
                    OctoPrintParams.printer, P.fileName, P.out,
                ], timeout: .seconds(3600),
                effect: .write,
                typed: { octoprint, params, _ in
                    try await octoprint.download(params, path: "/downloads/timelapse/\(REST.encoded(try REST.required(params, P.fileName)))")
                }
            ).says("Saved the timelapse {name} to {path} ({bytes:bytes})").writesFiles(),
            Command(
                "webcam.info", "The printer's webcams (pick one by name)", params: [OctoPrintParams.printer, P.webcam], effect: .read,
                use: OctoPrintService.webcamInfo
            ),
            Command(
                "webcam.snapshot", "Save a JPEG snapshot",
                params: [
                    OctoPrintParams.printer, P.jpegOut, P.firstWebcam,
                ],
                example: "assistantctl octoprint.webcam.snapshot out=now.jpg", effect: .write, use: OctoPrintService.webcamSnapshot
            ).says("Saved a snapshot from {webcam} to {path} ({bytes:bytes})").writesFiles(),
            Command(
                "webcam.frames", "Save frames from the MJPEG stream",
                params: [
                    OctoPrintParams.printer, P.outDir, P.count, P.firstWebcam,
                ], effect: .write, use: OctoPrintService.webcamFrames
            ).says("Saved {files:count} frames from {webcam} in {out_dir}").writesFiles().confirm("Replace the frames already in {out_dir}?"),
            Command(
                "logs.download", "Download a log file",
                params: [
                    OctoPrintParams.printer, P.logName, P.out,
                ],
                effect: .write,
                typed: { octoprint, params, _ in
                    try await octoprint.download(params, path: "/downloads/logs/\(REST.encoded(try REST.required(params, P.logName)))")
                }
            ).says("Saved the log {name} to {path} ({bytes:bytes})").writesFiles(),
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
                    result: r.result ?? OctoPrintDocuments.answer(r.method.rawValue, r.summary), example: r.example, effect: r.effect
                ) { octoprint, params, _ in try await octoprint.rest(r, params) }
                .effectReason(RESTCatalog.writes[r.name])
                .mapDescriptor {
                    $0.personOnly = r.personOnly
                    $0.confirm = RESTCatalog.questions[r.name].map { ConfirmSentence($0) }
                    $0.says = RESTCatalog.said[r.name].map(ShortAnswer.init)
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
            ], resourcesSetUp: .init(method: "octoprint.printers.list", member: "printers"), reachesOutside: true, pages: pages)
    }

    typealias Words = PageDeclaration.Words

    /// Its part of the web app's Printers page: each printer's state, the job's buttons, its
    /// temperatures and its webcam (both drawn again while the page is open; the webcam's picture
    /// comes through the daemon, so the printer's key never reaches the browser).
    static let pages: [PageDeclaration] = [
        PageDeclaration(
            .printers, Words("Printer", "Tiskárna"), read: .init(method: "octoprint.status"),
            actions: [
                .init("octoprint.job.pause", Words("Pause", "Pozastavit"), fromRow: ["printer": "printer"], when: "flags.printing"),
                .init("octoprint.job.resume", Words("Resume", "Pokračovat"), fromRow: ["printer": "printer"], when: "flags.paused"),
                .init("octoprint.job.cancel", Words("Cancel", "Zrušit"), fromRow: ["printer": "printer"], when: "flags.printing"),
            ],
            pictures: [
                .init(
                    "octoprint.temperature.chart", Words("Temperatures, last 30 minutes", "Teploty za posledních 30 minut"),
                    params: ["minutes": 30], path: "path", kind: .png, refreshSeconds: 15),
                .init("octoprint.webcam.snapshot", Words("Webcam", "Kamera"), path: "out", kind: .jpg, refreshSeconds: 5),
            ],
            each: .init("octoprint.printers.list", member: "printers", key: "name", param: "printer"))
    ]
}
