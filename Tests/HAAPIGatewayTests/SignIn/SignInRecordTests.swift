import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway

/// A sign-in's record as a document (what a shared store keeps, issue #20): every member survives encoding, every sample
/// step comes back equal, and a document whose step no longer decodes is refused.
@Suite("Sign-in record documents")
struct SignInRecordTests {
    /// Each shared sample step, decoded as the gateway decodes steps (without keeping the raw JSON).
    static func sampleSteps() throws -> [Representation] {
        try SampleRenderingTests.samples.compactMap { url in
            let json = try JSONValue.parse(try Data(contentsOf: url))
            return try? Representation(json: json, keepingRawJSON: false)
        }
    }

    static func roundTrip(_ record: SignInRecord) throws -> SignInRecord {
        try JSONDecoder().decode(SignInRecord.self, from: try JSONEncoder().encode(record))
    }

    @Test("every member survives, the step and the problem's links included")
    func everyMember() throws {
        var record = SignInRecord()
        record.phase = .failed(.gateway(.fieldNotOnPage, arguments: ["field": "otp"]))
        record.deliveryDelayed = true
        record.refusedSubmissions = 2
        record.step = try #require(try Self.sampleSteps().first)
        record.version = 7
        record.notices = [.upstream("Wrong code"), .gateway(.stalePage)]
        record.fieldErrors = ["userName": .gateway(.requiredField, arguments: ["field": "Username"])]
        record.values = ["userName": "demo"]
        record.pollingSince = Date(timeIntervalSince1970: 1_800_000_000)
        record.problemLinks = [Link(href: "/restart", rel: "restart", title: "Try again")]
        record.device = SignInDevice(reference: "ref-1", clientID: "build-host", clientName: "Build host 3")
        record.startLink = StartLink(reference: "counter-7", parameters: ["login_hint": "alice"])
        let back = try Self.roundTrip(record)
        #expect(back.csrfToken == record.csrfToken && back.flowID == record.flowID)
        #expect(back.phase == record.phase && back.deliveryDelayed && back.refusedSubmissions == 2)
        #expect(back.step == record.step && back.version == 7)
        #expect(back.notices == record.notices && back.fieldErrors == record.fieldErrors && back.values == record.values)
        #expect(back.pollingSince == record.pollingSince)
        #expect(back.problemLinks == record.problemLinks)
        #expect(back.device == record.device && back.startLink == record.startLink)
        #expect(back.signIn == record.signIn)
    }

    @Test("every shared sample step comes back equal")
    func everySample() throws {
        let steps = try Self.sampleSteps()
        #expect(steps.count > 20)
        for step in steps {
            var record = SignInRecord()
            record.step = step
            #expect(try Self.roundTrip(record).step == step, "\(step.type.rawValue) \(step.metadata?.viewName ?? "")")
        }
    }

    @Test("a document whose step does not decode is refused (the store restarts that sign-in)")
    func undecodableStep() throws {
        var document = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(SignInRecord())) as? [String: Any] ?? [:]
        document["step"] = ["type": 42]
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SignInRecord.self, from: try JSONSerialization.data(withJSONObject: document))
        }
    }
}
