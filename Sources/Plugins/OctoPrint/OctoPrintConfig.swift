import PluginKit

/// OctoPrint's configuration, declared once with its defaults.
@dynamicMemberLookup
struct OctoPrintConfig: PluginOptions {
    let maxToolTemp = ConfigKey<Double>("max_tool_temp", .number(min: 0, max: 500), default: 300, help: "highest hotend target accepted, °C")
    let maxBedTemp = ConfigKey<Double>("max_bed_temp", .number(min: 0, max: 200), default: 120, help: "highest bed target accepted, °C")
    let maxChamberTemp = ConfigKey<Double>(
        "max_chamber_temp", .number(min: 0, max: 150), default: 80, help: "highest chamber target accepted, °C")
    let progressMilestones = ConfigKey<[Int64]>(
        "progress_milestones", .array(of: .integer(min: 1, max: 99)), default: [25, 50, 75], help: "progress notices at these percentages")
    let bedCooledBelow = ConfigKey<Double>(
        "bed_cooled_below", .number(min: 0, max: 150), default: 40, help: "bed.cooled notice below this temperature after a print, °C")
    let offlineAfter = ConfigKey<Int64>(
        "offline_after_s", .integer(min: 10, max: 86_400), default: 300, help: "printer.offline notice after this long unreachable")
    let downloadMaxMB = ConfigKey<Int64>(
        "download_max_mb", .integer(min: 1, max: 65_536), default: 2048,
        help: "largest file octoprint.files.download and the other downloads save, MB (a timelapse is the largest)")
    let fetchTimeoutS = ConfigKey<Int64>(
        "fetch_timeout_s", .integer(min: 1, max: 86_400), default: 600,
        help: "how long octoprint.files.upload url= may take to fetch the file, all of it, s")
}
