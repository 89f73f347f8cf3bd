import Foundation
import Testing

@testable import Tasks

/// The WebDAV reader refuses a multistatus cut off in transit instead of reading half of it.
@Suite(.stopsTestHosts)
struct DAVXMLTests {
    static let answer = #"""
        <?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag>\#
        </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:sync-token>t2</d:sync-token></d:multistatus>
        """#

    @Test func aWholeAnswerIsReadAndATruncatedOneIsRefused() throws {
        let root = try #require(DAVElement.parse(Data(Self.answer.utf8)))
        let (responses, token) = DAVResponse.multistatus(root)
        #expect(responses.map(\.href) == ["/cal/a.ics"])
        #expect(token == "t2")
        let cut = String(Self.answer.prefix(Self.answer.count / 2))
        #expect(DAVElement.parse(Data(cut.utf8)) == nil)
    }
}
