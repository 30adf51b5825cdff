import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway

/// What the upstream's steps, the gateway's refusals and the outcome's hand-over do to a sign-in's record
/// (``SignInRecord``'s decisions, which the session applies).
@Suite("Sign-in record decisions")
struct SignInRecordStepsTests {
    static func formStep(title: String = "Login") throws -> Representation {
        try Representation(json: [
            "type": "authentication-step",
            "actions": [
                [
                    "template": "form", "kind": "login", "title": .string(title),
                    "model": ["href": "/login", "method": "POST", "fields": [["name": "userName", "type": "username"]]],
                ]
            ],
        ])
    }

    /// A polling step in `status`, with a message and a link.
    static func pollingStep(status: String = "pending", message: String = "Open the app", interval: String = "2000") throws -> Representation {
        try Representation(json: [
            "type": "polling-step",
            "properties": ["status": .string(status), "interval": .string(interval)],
            "messages": [["text": .string(message)]],
            "links": [["href": "/cancel", "rel": "cancel", "title": "Cancel"]],
            "actions": [["template": "form", "kind": "poll", "model": ["href": "/poll", "method": "GET"]]],
        ])
    }

    @Test("the same pending polling page: the same messages, links and actions as seen; a property the page does not show is no change")
    func samePendingPage() throws {
        let shown = try Self.pollingStep()
        #expect(SignInRecord.isSamePendingPage(shown, try Self.pollingStep(interval: "5000")))
        #expect(!SignInRecord.isSamePendingPage(shown, try Self.pollingStep(message: "Still waiting")))
        #expect(!SignInRecord.isSamePendingPage(shown, try Self.pollingStep(status: "done")))
        #expect(!SignInRecord.isSamePendingPage(try Self.formStep(), try Self.formStep()), "only pending polling steps")
    }

    @Test("a step is a new page, the next version, unless it is the same pending polling page; the pending time is kept while pending")
    func showingSteps() throws {
        var record = SignInRecord()
        let started = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(record.show(try Self.formStep()) && record.version == 1)
        #expect(record.show(try Self.formStep(title: "Again")) && record.version == 2, "a form step is always a new page")
        let pending = try Self.pollingStep()
        record.notePolling(of: pending, at: started)
        #expect(record.show(pending) && record.version == 3)
        let later = try Self.pollingStep(interval: "3000")
        record.notePolling(of: later, at: started.addingTimeInterval(5))
        #expect(!record.show(later) && record.version == 3 && record.step == later, "the same page keeps its version, the step is the new one")
        #expect(record.pollingSince == started)
        let done = try Self.pollingStep(status: "done")
        record.notePolling(of: done, at: started.addingTimeInterval(9))
        #expect(record.pollingSince == nil)
        #expect(!record.hasMovedOn(from: 3) && record.hasMovedOn(from: 2))
        record.end(as: .cancelled)
        #expect(record.hasMovedOn(from: 3) && record.shownStep == nil && record.step == nil)
    }

    @Test("a refusal leaves its texts on the next page; only the upstream's counts as a failed post, and its field errors add to the page's")
    func refusals() throws {
        var record = SignInRecord()
        record.fieldErrors = ["otp": .upstream("Expired")]
        record.refuse(.stalePage)
        #expect(record.notices == [.gateway(.stalePage)] && record.fieldErrors.count == 1 && record.refusedSubmissions == 0)
        let required = PageText.gateway(.requiredField, arguments: ["field": "Username"])
        record.refuse(.missingFields(["userName": required], typed: ["remember": "on"]))
        #expect(record.notices == [.gateway(.fillRequired)] && record.fieldErrors == ["userName": required] && record.values == ["remember": "on"])
        let kept = try Self.formStep(title: "With links")
        let refusal = SignInRefusal.byUpstream(notices: [.upstream("Wrong password")], fieldErrors: ["password": .upstream("Wrong")], typed: [:])
        #expect(refusal.isFailedPost && !SignInRefusal.stalePage.isFailedPost && !SignInRefusal.invalidPasskey.isFailedPost)
        record.keep(kept, refusedBy: refusal)
        #expect(record.step == kept && record.refusedSubmissions == 1)
        #expect(record.notices == [.upstream("Wrong password")] && record.fieldErrors == ["userName": required, "password": .upstream("Wrong")])
        #expect(record.values.isEmpty)
        #expect(record.hasOneShotTexts)
        let page = record.page(deviceName: "Build host")
        #expect(page.notices == record.notices && page.deviceName == "Build host")
        record.consumeOneShotTexts()
        #expect(!record.hasOneShotTexts)
    }

    @Test("the outcome's hand-over: retried is a delayed delivery; an earlier success noted by another replica makes the sign-in signed in")
    func handOver() {
        var record = SignInRecord()
        record.end(as: .cancelled)
        #expect(record.note(.retrying) && record.deliveryDelayed)
        #expect(record.note(.accepted) && !record.deliveryDelayed)
        record.deliveryDelayed = true
        #expect(!record.note(.alreadyEnded("error")) && record.phase == .cancelled && !record.deliveryDelayed)
        #expect(!record.note(.alreadyEnded("success")) && record.phase == .signedIn)
    }
}
