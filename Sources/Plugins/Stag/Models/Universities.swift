import PluginKit

/// The IS/STAG instances the reference lists (§1.2), by the id a person types.
struct University: ResultObject, Sendable, Equatable {
    var id: String
    var name: String
    var host: String
    var baseURL: String { "https://\(host)" }

    static let known: [University] = [
        University(id: "zcu", name: "Západočeská univerzita v Plzni", host: "stag-ws.zcu.cz"),
        University(id: "zcu-demo", name: "ZČU demo (synthetic data)", host: "stag-demo.zcu.cz"),
        University(id: "jcu", name: "Jihočeská univerzita v Českých Budějovicích", host: "stag-ws.jcu.cz"),
        University(id: "osu", name: "Ostravská univerzita", host: "wsstag.osu.cz"),
        University(id: "tul", name: "Technická univerzita v Liberci", host: "stag-ws.tul.cz"),
        University(id: "uhk", name: "Univerzita Hradec Králové", host: "stagws.uhk.cz"),
        University(id: "ujep", name: "Univerzita J. E. Purkyně v Ústí nad Labem", host: "ws.ujep.cz"),
        University(id: "upce", name: "Univerzita Pardubice", host: "stag-ws.upce.cz"),
        University(id: "upol", name: "Univerzita Palackého v Olomouci", host: "stag-ws.upol.cz"),
        University(id: "utb", name: "Univerzita Tomáše Bati ve Zlíně", host: "stag-ws.utb.cz"),
        University(id: "vfu", name: "Veterinární univerzita Brno", host: "stagweb.vfu.cz"),
        University(id: "avu", name: "Akademie výtvarných umění v Praze", host: "stag-avu.zcu.cz"),
        University(id: "vsss", name: "Vysoká škola sociálně správní", host: "stag-vsss.zcu.cz"),
    ]

    static func named(_ id: String) -> University? { known.first { $0.id == id.lowercased() } }

    static let members = ResultMembers<Self>(.field("id", \.id), .field("name", \.name), .field("base_url", \.baseURL))
}
