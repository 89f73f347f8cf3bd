// swift-tools-version: 6.1
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// What the kit imports, and nothing more: a plugin builds on these and on the kit.
let kitDependencies: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOPosix", package: "swift-nio"),
    .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
    .product(name: "NIOHTTP1", package: "swift-nio"),
    .product(name: "_NIOFileSystem", package: "swift-nio"),
    .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
    .product(name: "NIOSSL", package: "swift-nio-ssl"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "Crypto", package: "swift-crypto"),
    .product(name: "AsyncHTTPClient", package: "async-http-client"),
    .product(name: "GRDB", package: "GRDB.swift"),
]

/// What the runtime builds on: the kit's own, and what only the runtime uses.
let serviceDependencies: [Target.Dependency] =
    kitDependencies + [
        .product(name: "NIOExtras", package: "swift-nio-extras"),
        .product(name: "NIOTLS", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "TOMLKit", package: "TOMLKit"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "Subprocess", package: "swift-subprocess"),
        .product(name: "SystemPackage", package: "swift-system"),
    ]

let package = Package(
    name: "assistantd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "assistantd", targets: ["assistantd"]),
        .executable(name: "assistantctl", targets: ["assistantctl"]),
        .library(name: "HostCore", targets: ["HostCore"]),
        .library(name: "PluginKit", targets: ["PluginKit"]),
        .library(name: "AssistantClient", targets: ["AssistantClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Pre-1.0: pinned to its minor version; its types stay in assistantctl's MCP/MCPServer.swift.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk.git", .upToNextMinor(from: "0.12.1")),
    ],
    targets: [
        // Wire types shared by the daemon, the CLI and the tests: JSON values, ids, errors, notices.
        .target(
            name: "AssistantRPC",
            swiftSettings: strictSwift
        ),
        // A small NIO client for the daemon's socket, used by assistantctl, the tests and the benchmark.
        .target(
            name: "AssistantClient",
            dependencies: [
                "AssistantRPC",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSwift
        ),
        // What a plugin builds on: the plugin protocol, commands, parameters, results, errors,
        // topics, options, accounts, the upstream client, refresh and cache, and calendar output.
        .target(
            name: "PluginKit",
            dependencies: ["AssistantRPC", "CICal"] + kitDependencies,
            swiftSettings: strictSwift
        ),
        // What only the study systems (Stag, KOS) share: exam alerts, watched exams and their
        // table, class reminders, their options and views.
        .target(
            name: "StudyKit",
            dependencies: ["PluginKit", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift
        ),
        // The runtime: server, dispatcher, registry, scheduler, vault, store and notices. Plugins
        // never import it; they build on PluginKit.
        .target(
            name: "HostCore",
            dependencies: ["AssistantRPC", "PluginKit"] + serviceDependencies,
            swiftSettings: strictSwift
        ),
        // Cairo's PDF surface for the logbook's EASA pages (Debian: libcairo2-dev, fonts-dejavu-core).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // libqrencode, for the pairing address drawn in the terminal (Debian: libqrencode-dev).
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // Charts and timetables drawn with Cairo, for the plugins that draw (not part of the kit
        // every plugin links).
        .target(name: "PictureKit", dependencies: ["CCairo", "PluginKit"], swiftSettings: strictSwift),
        .target(
            name: "Logbook",
            dependencies: [
                "PluginKit", "CCairo", "PictureKit",
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            path: "Sources/Plugins/Logbook",
            swiftSettings: strictSwift
        ),
        // libical for iCalendar and RRULE expansion (Debian: libical-dev).
        .systemLibrary(
            name: "CICal",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .target(
            name: "Tasks",
            dependencies: [
                "PluginKit", "CICal",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            path: "Sources/Plugins/Tasks",
            swiftSettings: strictSwift
        ),
        .target(
            name: "OctoPrint",
            dependencies: [
                "PluginKit", "PictureKit", "CCairo",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
            ],
            path: "Sources/Plugins/OctoPrint",
            swiftSettings: strictSwift
        ),
        .target(
            name: "KOS",
            dependencies: [
                "PluginKit", "StudyKit", "PictureKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/Plugins/KOS",
            swiftSettings: strictSwift
        ),
        .target(
            name: "Stag",
            dependencies: [
                "PluginKit", "StudyKit", "PictureKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/Plugins/Stag",
            swiftSettings: strictSwift
        ),
        // The web app served to paired phones (`[web]`): pages over the daemon's methods, through
        // the same dispatcher. Templates, styles and words are embedded in the binary.
        .target(
            name: "WebApp",
            dependencies: [
                "HostCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [
                .embedInCode("Resources/app.css"), .embedInCode("Resources/app.js"), .embedInCode("Resources/icon.svg"),
                .embedInCode("Resources/sw.js"), .embedInCode("Resources/manifest.webmanifest"),
                .embedInCode("Resources/en.json"), .embedInCode("Resources/cs.json"),
                .embedInCode("Resources/templates/head.mustache"), .embedInCode("Resources/templates/foot.mustache"),
                .embedInCode("Resources/templates/hidden.mustache"), .embedInCode("Resources/templates/today.mustache"),
                .embedInCode("Resources/templates/message.mustache"), .embedInCode("Resources/templates/pair.mustache"),
                .embedInCode("Resources/templates/confirm.mustache"), .embedInCode("Resources/templates/settings.mustache"),
                .embedInCode("Resources/templates/sections.mustache"), .embedInCode("Resources/templates/notices.mustache"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "assistantd",
            dependencies: [
                "HostCore", "WebApp", "Logbook", "OctoPrint", "Tasks", "Stag", "KOS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "assistantctl",
            dependencies: [
                "AssistantClient", "CQREncode",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSwift,
            // The MCP SDK imports FoundationNetworking, whose static archive (what
            // `--static-swift-stdlib` links, as scripts/install builds) calls libcurl but does not
            // name it. The system's shared libcurl is linked here, as sqlite3 and cairo are: the
            // Swift runtime stays inside the binary, and the one new runtime dependency is a
            // library every Debian has (libcurl4), rather than a static curl and all of its own
            // dependencies, of which Debian ships no static copies of some (GSSAPI, LDAP).
            linkerSettings: [.linkedLibrary("curl", .when(platforms: [.linux]))]
        ),
        // Starts real daemons and real peers for tests (Hummingbird's HummingbirdTesting shape).
        .target(
            name: "AssistantTesting",
            dependencies: [
                "HostCore", "StudyKit", "AssistantClient", "CCairo",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Tests/AssistantTesting",
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "HostCoreTests",
            dependencies: [
                "HostCore", "StudyKit", "AssistantClient", "AssistantTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "LogbookTests",
            dependencies: ["Logbook", "HostCore", "AssistantClient", "AssistantTesting"],
            // Read from the source tree by path (#filePath), not bundled.
            exclude: ["Fixtures"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "TasksTests",
            dependencies: [
                "Tasks", "HostCore", "AssistantClient", "AssistantTesting",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "KOSTests",
            dependencies: [
                "KOS", "HostCore", "AssistantClient", "AssistantTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "StagTests",
            dependencies: [
                "Stag", "HostCore", "AssistantClient", "AssistantTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // Read from the source tree by path (#filePath), not bundled.
            exclude: ["Fixtures"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "OctoPrintTests",
            dependencies: ["OctoPrint", "PictureKit", "HostCore", "AssistantClient", "AssistantTesting"],
            swiftSettings: strictSwift
        ),
        // The README's "Writing a plugin" example, compiled and tested so the section cannot drift.
        .target(
            name: "ExamplePlugin",
            dependencies: ["PluginKit"],
            path: "Tests/ExamplePlugin",
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ExamplePluginTests",
            dependencies: ["ExamplePlugin", "HostCore", "AssistantTesting"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "DaemonTests",
            dependencies: ["HostCore", "AssistantClient", "AssistantTesting"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                "WebApp", "HostCore", "Tasks", "Stag", "KOS", "OctoPrint", "Logbook", "AssistantTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Benchmarks: run with `swift run -c release ping-bench` (see README).
        .executableTarget(
            name: "echo-floor",
            path: "Benchmarks/EchoFloor"
        ),
        .executableTarget(
            name: "nio-floor",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ],
            path: "Benchmarks/NIOFloor",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "logbook-bench",
            dependencies: ["Logbook", "HostCore", "AssistantClient", "AssistantTesting"],
            path: "Benchmarks/LogbookBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "web-bench",
            dependencies: [
                "WebApp", "HostCore", "Tasks", "Logbook", "AssistantClient", "AssistantTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/WebBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "redact-bench",
            dependencies: ["HostCore", "AssistantTesting"],
            path: "Benchmarks/RedactBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "stag-bench",
            dependencies: [
                "Stag", "HostCore", "AssistantClient", "AssistantTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/StagBench",
            swiftSettings: strictSwift
        ),
        // The socket protocol's fuzz target: `scripts/fuzz` builds it with libFuzzer; a plain build
        // gives a replay tool for the corpus (`swift run rpc-fuzz Fuzz/corpus`).
        .executableTarget(
            name: "rpc-fuzz",
            dependencies: ["AssistantTesting", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            path: "Fuzz/RPCFuzz",
            swiftSettings: strictSwift
        ),
        // Upstream and file parsers' fuzz target (XML/Atom, JSON, iCalendar, the logbook's CSV, STAG's and KOSapi's decoders,
        // the webcam's MJPEG splitter):
        // `scripts/fuzz parsers`; a plain build replays files (`swift run parser-fuzz Fuzz/parser-corpus/*`).
        .executableTarget(
            name: "parser-fuzz",
            dependencies: ["HostCore", "Tasks", "Logbook", "Stag", "KOS", "OctoPrint"],
            path: "Fuzz/ParserFuzz",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "kos-bench",
            dependencies: [
                "KOS", "HostCore", "AssistantClient", "AssistantTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/KOSBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "tasks-bench",
            dependencies: ["Tasks", "HostCore", "AssistantClient", "AssistantTesting"],
            path: "Benchmarks/TasksBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "octoprint-bench",
            dependencies: ["HostCore", "AssistantClient", "AssistantTesting"],
            path: "Benchmarks/OctoPrintBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "kit-bench",
            dependencies: ["HostCore"],
            path: "Benchmarks/KitBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "result-bench",
            dependencies: ["AssistantRPC"],
            path: "Benchmarks/ResultBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "mcp-bench",
            dependencies: ["AssistantClient"],
            path: "Benchmarks/MCPBench",
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "ping-bench",
            dependencies: ["AssistantClient"],
            path: "Benchmarks/PingBench",
            swiftSettings: strictSwift
        ),
    ]
)
