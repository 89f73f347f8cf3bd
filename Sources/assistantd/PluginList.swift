import HostCore
import KOS
import Logbook
import OctoPrint
import Stag
import Tasks

/// The only place that names plugins. Each plugin issue adds its plugin here.
enum PluginList {
    static var all: [any AssistantPlugin] { [LogbookPlugin(), OctoPrintPlugin(), TasksPlugin(), StagPlugin(), KOSPlugin()] }
}
