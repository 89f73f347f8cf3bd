import HostCore
import Logbook
import OctoPrint

/// The only place that names plugins. Each plugin issue adds its plugin here.
enum PluginList {
    static var all: [any AssistantPlugin] { [LogbookPlugin(), OctoPrintPlugin()] }
}
