import Foundation
import Testing

@testable import HAAPI
@testable import HAAPIGateway

/// A sign-in's document written member by member (``SignInDocument/encoded()``, `JSONWriter`) instead of through
/// `JSONEncoder`: for documents of every phase, with and without each optional, with text that needs escaping, every
/// sample step and flow states with and without their token, cookies, nonce and step, the written JSON is the JSON
/// `JSONEncoder` writes (the same keys and values) and reads back as the same document; equal documents give the same
/// bytes; and any string survives the escaping.
@Suite("Sign-in documents written without JSONEncoder")
struct SignInDocumentWritingTests {
    /// Texts that need escaping in JSON, and texts that must be left as they are.
    static let awkwardTexts = [
        "say \"hi\"", #"C:\path\n \\"#, "tab\tnew\nline\rbell\u{7}nul\u{0}bs\u{8}ff\u{C}us\u{1F}del\u{7F}",
        "Åsa Ñandú 日本語 👩‍👩‍👧 🔑 \u{2028}\u{2029}", "</script><a href=\"/x?y=1&z=2\">", "",
    ]

    /// The encoder the gateway used before: sorted keys, default strategies.
    static var referenceEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// A flow's state; `full` gives it every optional member, several cookies and awkward texts.
    static func flowState(full: Bool, currentStep: String?) -> HAAPIFlowState {
        let text = awkwardTexts[full ? 3 : 0]
        let cookies = [
            HAAPIFlowState.Cookie(
                name: "node",
                value: "sticky \"one\"",
                domain: "login.example",
                hostOnly: true,
                path: "/",
                secure: false,
                expires: nil,
                order: 0
            ),
            HAAPIFlowState.Cookie(
                name: "route",
                value: text,
                domain: "example",
                hostOnly: false,
                path: "/authn",
                secure: true,
                expires: Date(timeIntervalSinceReferenceDate: 817_000_123.456_789),
                order: 1
            ),
        ]
        return HAAPIFlowState(
            formatVersion: HAAPIFlowState.currentFormatVersion,
            clientID: "gateway-\(text)",
            upstreamOrigin: "https://login.example:8443",
            dpopPrivateKeyPEM: "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg/+x=\n-----END PRIVATE KEY-----\n",
            haapiToken: full
                ? .init(value: "at-\(text)", tokenType: "DPoP", expiresIn: 300, expiresAt: Date(timeIntervalSince1970: 1_800_000_300)) : nil,
            sessionID: full ? "session/\(text)" : nil,
            dpopNonce: full ? "nonce-1" : nil,
            cookies: full ? cookies : [],
            codeVerifier: "verifier_~.-",
            oauthState: "state-\(text)",
            oidcNonce: full ? "oidc-nonce" : nil,
            scopes: full ? ["openid", "profile", text] : [],
            authorizationParameters: full
                ? AuthorizationParameters(
                    acrValues: ["urn:acr:password", "mfa"],
                    prompt: "login",
                    uiLocales: ["sv", "en"],
                    loginHint: text,
                    maxAgeSeconds: 600,
                    claims: #"{"id_token":{"email":null}}"#,
                    additional: ["zeta": "last", "alpha": text, "Mid": "\u{1}"]
                )
                : AuthorizationParameters(),
            currentStep: currentStep,
            lastSubmittedAction: full ? #"{"template":"form","kind":"login","model":{"href":"/authn?x=\"1\"","method":"POST"}}"# : nil,
            started: full,
            codeExchanged: false
        )
    }

    /// A record in `phase`; `full` gives it every optional member, notices, field errors, values and problem links.
    static func record(phase: SessionPhase, full: Bool, step: Representation?) -> SignInRecord {
        var record = SignInRecord(csrfToken: "csrf-\(full)", flowID: "flow-\(full)")
        record.phase = phase
        record.step = step
        record.version = full ? 12 : 0
        guard full else { return record }
        record.deliveryDelayed = true
        record.refusedSubmissions = 3
        record.notices = [
            .upstream(awkwardTexts[1]), .gateway(.stalePage), .gateway(.requiredField, arguments: ["field": awkwardTexts[2], "b": "2"]),
        ]
        record.fieldErrors = [
            "userName": .gateway(.requiredField, arguments: ["field": "Username"]), awkwardTexts[3]: .upstream(awkwardTexts[4]), "": .upstream(""),
        ]
        record.values = ["userName": awkwardTexts[2], "z": "", "ä": awkwardTexts[3], "a\"b": "c\\d"]
        record.pollingSince = Date(timeIntervalSince1970: 1_800_000_000.125)
        record.lastPolledAt = Date(timeIntervalSinceReferenceDate: 817_000_001.1)
        record.problemLinks = [
            Link(href: "/restart", rel: "restart", title: "Try \"again\""),
            Link(
                href: "/x",
                rel: "help",
                type: "text/html",
                raw: [
                    "href": "/x", "rel": "help", "count": 3, "ratio": 0.25, "big": 1e300, "none": .null, "flag": true,
                    "list": [1, "two", [false], ["k": "v\n"]], "type": "text/html",
                ]
            ),
        ]
        record.device = SignInDevice(reference: "ref-\(awkwardTexts[0])", clientID: "build-host", clientName: awkwardTexts[3])
        record.startLink = StartLink(reference: phase == .step ? nil : "counter-7", parameters: ["login_hint": awkwardTexts[4], "prompt": "login"])
        return record
    }

    /// Every phase (and both kinds of failure text), with and without the optionals, with the step kept once or in both
    /// places, and every sample step.
    static func documents() throws -> [SignInDocument] {
        let steps = try SignInRecordTests.sampleSteps()
        let phases: [SessionPhase] = [
            .confirming(code: "12-34", hostName: awkwardTexts[3]), .step, .signedIn, .cancelled,
            .failed(.upstream(awkwardTexts[2])), .failed(.gateway(.pollingTimeout, arguments: ["after": "5 min", "\"": "\\"])),
            .failed(.gateway(.stalePage)),
        ]
        var documents: [SignInDocument] = []
        for (index, phase) in phases.enumerated() {
            for full in [false, true] {
                let step = full ? steps[index % steps.count] : nil
                let record = record(phase: phase, full: full, step: step)
                documents.append(SignInDocument(record: record, flow: flowState(full: full, currentStep: nil), flowStepIsRecordStep: step != nil))
                documents.append(SignInDocument(record: record, flow: flowState(full: !full, currentStep: step?.jsonText)))
            }
        }
        for step in steps {
            let record = record(phase: .step, full: false, step: step)
            documents.append(SignInDocument(record: record, flow: flowState(full: false, currentStep: nil), flowStepIsRecordStep: true))
        }
        var formatOne = documents[3]
        formatOne.format = 1
        documents.append(formatOne)
        return documents
    }

    @Test("every document is the JSON JSONEncoder writes, and reads back as the same document")
    func sameAsJSONEncoder() throws {
        let documents = try Self.documents()
        #expect(documents.count > 40)
        for document in documents {
            let written = try document.encoded()
            let reference = try Self.referenceEncoder.encode(document)
            let tree = try JSONSerialization.jsonObject(with: Data(written)) as? NSDictionary
            let referenceTree = try JSONSerialization.jsonObject(with: reference) as? NSDictionary
            #expect(tree != nil && tree == referenceTree, "the same keys and values as JSONEncoder's: \(String(decoding: written, as: UTF8.self))")
            let back = try SignInDocument.decode(written)
            #expect(try Self.referenceEncoder.encode(back) == reference, "read back, the document encodes as the one written")
            #expect(back.flow == document.flow && back.record.step == document.record.step)
            #expect(back.record.phase == document.record.phase && back.record.problemLinks == document.record.problemLinks)
        }
    }

    @Test("equal documents give the same bytes, whatever order their dictionaries were filled in")
    func deterministic() throws {
        for document in try Self.documents() {
            #expect(try document.encoded() == document.encoded())
            var refilled = document
            refilled.record.values = Dictionary(uniqueKeysWithValues: document.record.values.reversed().map { ($0.key, $0.value) })
            refilled.record.fieldErrors = Dictionary(uniqueKeysWithValues: document.record.fieldErrors.reversed().map { ($0.key, $0.value) })
            refilled.flow.authorizationParameters.additional = [:]
            for (name, value) in document.flow.authorizationParameters.additional.reversed() {
                refilled.flow.authorizationParameters.additional[name] = value
            }
            #expect(try refilled.encoded() == document.encoded())
        }
    }

    @Test("a number JSON cannot hold is refused, as JSONEncoder refuses it")
    func nonFiniteNumber() throws {
        var record = SignInRecord()
        record.problemLinks = [Link(href: "/x", rel: "help", raw: ["href": "/x", "rel": "help", "size": .number(.infinity)])]
        let document = SignInDocument(record: record, flow: Self.flowState(full: false, currentStep: nil))
        #expect(throws: EncodingError.self) { try Self.referenceEncoder.encode(document) }
        #expect(throws: EncodingError.self) { try document.encoded() }
    }

    @Test("any string is escaped so that JSONDecoder reads it back, and only what RFC 8259 requires is escaped")
    func stringsSurvive() throws {
        var generator = SeededGenerator(seed: 43)
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x1_0000...0x10_FFFF, 0x1F300...0x1FAFF]
        var texts = Self.awkwardTexts
        for _ in 0..<2000 {
            let length = Int.random(in: 0...24, using: &generator)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length {
                let range = ranges.randomElement(using: &generator) ?? ranges[0]
                scalars.append(Unicode.Scalar(UInt32.random(in: range, using: &generator)) ?? "?")
            }
            texts.append(String(scalars))
        }
        for text in texts {
            var writer = JSONWriter()
            writer.beginArray()
            writer.string(text)
            writer.endArray()
            #expect(try JSONDecoder().decode([String].self, from: Data(writer.bytes)) == [text], "\(text.unicodeScalars.map { $0.value })")
            #expect(!writer.bytes.contains { $0 < 0x20 }, "no control character is written as it is")
            let plain = !text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            if plain { #expect(writer.bytes == Array("[\"\(text)\"]".utf8), "text that needs no escape is written as its UTF-8") }
        }
    }

    @Test("the writer's short escapes and its \\u escapes")
    func escapes() {
        var writer = JSONWriter()
        writer.string("\"\\\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}/é")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""\"\\\b\f\n\r\t\u0000\u001f"# + "\u{7F}/é\"")
    }
}
