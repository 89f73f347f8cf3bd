import PluginKit

/// Every parameter of the OctoPrint plugin's commands, declared once and read typed (`p[OctoPrintParams.printer]`).
enum OctoPrintParams {
    static let printer = Param<String>("printer", help: "printer name (optional with one printer or a default)")

    // Printers
    static let caFile = Param<String>("ca_file", .path, help: "PEM file of a private CA for an https:// OctoPrint")
    static let basicUser = Param<String>("basic_user", help: "user for HTTP basic auth in front of OctoPrint")
    static let basicPassword = Param<String>("basic_password", .secret, help: "password for HTTP basic auth (stored in the vault)")
    static var connection: [any ParamDeclaration] { [caFile, basicUser, basicPassword] }
    static let newPrinter = Param<String>.required("name", help: "a short name, e.g. prusa")
    static let url = Param<String>.required("url", help: "OctoPrint's address, e.g. http://octopi.local")
    static let apiKey = Param<String>(
        "api_key", .secret, help: "API key (stored in the vault as octoprint/<name>/api_key; omitted: read from there)")
    static let keyPrinter = Param<String>.required("name", help: "a short name for the printer")
    static let keyURL = Param<String>.required("url", help: "OctoPrint's address")
    static let approver = Param<String>("user", help: "the OctoPrint user who should approve (default: any)")
    static let app = Param<String>.defaulted("app", default: "assistantd", help: "the application name OctoPrint shows")
    static let approvalTimeout = Param<Int64>.defaulted(
        "timeout_s", .integer(min: 10, max: 3600), default: 300, help: "how long to wait for the approval")
    static let listenTimeout = Param<Double>.defaulted("timeout_s", .number(min: 0.5, max: 30), default: 3, help: "how long to listen")
    static let interface = Param<String>("interface", help: "IPv4 address of the interface to ask on (default: the system's choice)")
    static let printerName = Param<String>.required("name", help: "printer name")
    static let newURL = Param<String>("url", help: "new address")
    static let gcodeWait = Param<Int64>.defaulted(
        "wait_s", .integer(min: 0, max: 30), default: 5, help: "how long to wait for the printer's answers (up to each command's ok); 0: do not wait")
    static let terminalLines = Param<Int64>.defaulted(
        "lines", .integer(min: 1, max: Int64(TerminalLog.capacity)), default: 100, help: "how many of the last lines")
    static let streamURL = Param<String>(
        "stream_url", help: "the webcam's MJPEG stream, for a camera served elsewhere than OctoPrint says (empty: OctoPrint's again)")
    static let snapshotURL = Param<String>(
        "snapshot_url", help: "the webcam's JPEG snapshot, for a camera served elsewhere than OctoPrint says (empty: OctoPrint's again)")
    static let newAPIKey = Param<String>("api_key", .secret, help: "new API key")

    // Files, downloads, the webcam
    static let location = Param<String>.defaulted(
        "location", .oneOf(["local", "sdcard"]), default: "local", help: "local storage or the printer's SD card")
    static let filePath = Param<String>.required("path", help: "path of the file on OctoPrint, e.g. folder/part.gcode")
    static let uploadFile = Param<String>("file", .path, help: "local file to upload (or url)")
    static let uploadURL = Param<String>(
        "url", help: "an http(s) address to fetch the file from instead (at most download_max_mb, within 10 minutes), then upload as a local file")
    static let uploadFolder = Param<String>("path", help: "folder on OctoPrint to upload into")
    static let select = Param<Bool>.defaulted("select", default: false, help: "select it after upload")
    static let print = Param<Bool>.defaulted("print", default: false, help: "start printing it after upload")
    static let folderName = Param<String>.required("name", help: "folder name")
    static let parentFolder = Param<String>("path", help: "parent folder")
    static let out = Param<String>.required("out", .path, help: "where to save it")
    static let fileName = Param<String>.required("name", help: "file name")
    static let logName = Param<String>.required("name", help: "log file name")
    static let webcam = Param<String>("name", help: "webcam name")
    static let firstWebcam = Param<String>("name", help: "webcam name (default: the first)")
    static let jpegOut = Param<String>.required("out", .path, help: "JPEG file to write")
    static let outDir = Param<String>.required("out_dir", .path, help: "folder for frame-0001.jpg, …")
    static let count = Param<Int64>.defaulted("count", .integer(min: 1, max: 1000), default: 10, help: "how many frames")
    static let onlyLocation = Param<String>("location", .oneOf(["local", "sdcard"]), help: "only this location (default: all)")
    static let destination = Param<String>.required("destination", help: "destination folder or path")
    static let sliceWith = Param<String>.required("slicer", help: "slicer id")
    static let gcode = Param<String>("gcode", help: "name of the resulting G-code")
    static let slicingProfile = Param<String>("profile", help: "slicing profile")
    static let selectResult = Param<Bool>("select", help: "select the result")
    static let printResult = Param<Bool>("print", help: "print the result")

    // Connection and printer
    static let port = Param<String>("port", help: "serial port (VIRTUAL for the virtual printer; default: OctoPrint's preference)")
    static let baudrate = Param<Int64>("baudrate", .integer(min: 0, max: 4_000_000), help: "baud rate (0 or omitted: auto)")
    static let printerProfile = Param<String>("profile", help: "printer profile id")
    static let savePreference = Param<Bool>("save", help: "save as OctoPrint's preference")
    static let autoconnect = Param<Bool>("autoconnect", help: "connect automatically when OctoPrint starts")
    static func axis(_ name: String) -> Param<Double> { Param(name, .number(min: -1000, max: 1000), help: "\(name) distance in mm") }
    static let axisNames = ["x", "y", "z"]
    static let absolute = Param<Bool>("absolute", help: "move to coordinates instead of by distances")
    static let speed = Param<Int64>("speed", .integer(min: 1, max: 100_000), help: "mm/min")
    static let axes = Param<[String]>.defaulted("axes", .array(of: .oneOf(["x", "y", "z"])), default: ["x", "y", "z"], help: "axes to home")
    static let feedFactor = Param<Int64>.required("factor", .integer(min: 50, max: 200), help: "percent, 50–200")
    static let flowFactor = Param<Int64>.required("factor", .integer(min: 75, max: 125), help: "percent, 75–125")
    static let temperature = Param<Double>.required("temperature", .number(), help: "°C (0 turns it off)")
    static let tool = Param<String>.defaulted("tool", default: "tool0", help: "tool0, tool1, …")
    static let activeTool = Param<String>.required("tool", help: "tool0, tool1, …")
    static let offset = Param<Double>.required("offset", .number(min: -50, max: 50), help: "°C, -50 to 50")
    static let amount = Param<Double>.required("amount", .number(min: -1000, max: 1000), help: "mm")
    static let commands = Param<[String]>.required("commands", help: "G-code lines, e.g. [\"G28\", \"M115\"]")

    // Administration
    static let slicer = Param<String>.required("slicer", help: "slicer id, e.g. curalegacy")
    static let profileKey = Param<String>.required("key", help: "profile key")
    /// The identifying parameter of one of OctoPrint's create/read/update/delete areas.
    static func itemKey(_ key: String, _ what: String) -> RequiredParam<String> { Param.required(key, help: "\(what) \(key)") }
    static func data(_ what: String) -> RequiredParam<JSONValue> { Param.required("data", .object, help: what) }
    static let userName = Param<String>.required("name", help: "user name")
    static let newUserPassword = Param<String>.required("password", .secret, help: "the new user's password (never from argv)")
    static let password = Param<String>.required("password", .secret, help: "the new password (never from argv)")
    static let currentPassword = Param<String>(
        "current_password", .secret, help: "your current password (OctoPrint asks for it when you change your own)")
    static let settings = Param<JSONValue>.required(
        "settings", .object, help: "a partial settings tree, e.g. {\"appearance\": {\"name\": \"Prusa\"}}")
    static let source = Param<String>.defaulted("source", .oneOf(["core", "custom"]), default: "core", help: "core or custom")
    static let action = Param<String>.required("action", help: "action id from system.list")
    static let unrendered = Param<String>.required("name", help: "unrendered job name")
    static let timelapseType = Param<String>.required("type", .oneOf(["off", "zchange", "timed"]), help: "off, zchange or timed")
    static let fps = Param<Int64>("fps", .integer(min: 1, max: 120), help: "frames per second")
    static let interval = Param<Int64>("interval", .integer(min: 1, max: 3600), help: "seconds between frames (timed)")
    static let postRoll = Param<Int64>("post_roll", .integer(min: 0, max: 3600), help: "seconds after the print")
    static let saveDefault = Param<Bool>("save", help: "save as the default")
    static let locale = Param<String>.required("locale", help: "locale, e.g. de")
    static let pack = Param<String>.required("pack", help: "pack id")
    static let test = Param<String>.required("command", .oneOf(["path", "url", "server", "resolution"]), help: "what to test")
    static let options = Param<JSONValue>("options", .object, help: "the test's parameters, e.g. {\"url\": \"http://…\"}")

    // Temperature chart
    static let chartMinutes = Param<Int64>.defaulted(
        "minutes", .integer(min: 1, max: Int64(TemperatureHistory.capacity / 60)), default: 30, help: "how far back the chart goes")
    static let chartPath = Param<String>.required("path", .path, help: "the PNG or PDF file to write (chosen by its extension)")
}
