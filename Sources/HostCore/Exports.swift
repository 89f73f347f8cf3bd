// The runtime serves plugins built on the kit: whoever imports the runtime (the daemon, the
// tests) sees the kit's types too.
@_exported import PluginKit
