import Foundation
import PluginKit

// Typed answers of the categories and feeds commands, written straight into the reply; their
// schemas are in TaskSchemas. A field the schema gives as "or null" is always written.

struct CategoryRow: Encodable, Sendable {
    let name: String
    let builtin: Bool
    let tasks: Int
}

struct CategoryList: Encodable, CallResult {
    let categories: [CategoryRow]
}

struct CategoryAdded: Encodable, CallResult {
    let name: String
}

/// `categories.remove`, `feeds.remove`: what went.
struct Removed: Encodable, CallResult {
    let removed: String
}

struct FeedRow: Encodable, Sendable {
    let name: String
    let url: String
    let items: Int
    let fetchedAt: String?
    let problem: String?

    enum CodingKeys: String, CodingKey {
        case name, url, items, problem
        case fetchedAt = "fetched_at"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(name, forKey: .name)
        try o.encode(url, forKey: .url)
        try o.encode(items, forKey: .items)
        try o.encode(fetchedAt, forKey: .fetchedAt)
        try o.encode(problem, forKey: .problem)
    }
}

struct FeedList: Encodable, CallResult {
    let feeds: [FeedRow]
}

/// One feed fetched: whether it changed and how many items it now has (null when unchanged),
/// or why it could not be read.
struct FeedRefreshed: Encodable, Sendable {
    let name: String
    let changed: Bool
    let items: Int?
    let problem: String?

    enum CodingKeys: String, CodingKey { case name, changed, items, problem }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(name, forKey: .name)
        try o.encode(changed, forKey: .changed)
        if let problem { try o.encode(problem, forKey: .problem) } else { try o.encode(items, forKey: .items) }
    }
}

struct FeedRefreshList: Encodable, CallResult {
    let feeds: [FeedRefreshed]
}
