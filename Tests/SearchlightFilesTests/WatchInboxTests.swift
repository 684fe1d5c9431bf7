import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

@Suite("Watch inbox", .ownThread)
struct WatchInboxTests {
    @Test func tellsWhetherPendingEventsCameBeforeAnInstant() {
        let inbox = WatchInbox()
        let before = ContinuousClock.now
        #expect(!inbox.hasEvents(before: .now))
        inbox.append([InotifyEvent(watch: WatchDescriptor(rawValue: 1), mask: .create, name: Array("a".utf8))])
        #expect(!inbox.hasEvents(before: before))
        #expect(inbox.hasEvents(before: .now))
        _ = inbox.drain()
        #expect(!inbox.hasEvents(before: .now))
    }
}
