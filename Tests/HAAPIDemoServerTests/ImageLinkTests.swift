import Foundation
import Testing

@testable import HAAPIDemoServer

/// The poll user's waiting step links an image hosted on the server (not a `data:` URI), served only with the flow's
/// credentials.
@Suite struct ImageLinkTests {
    static let imagePath = "/authn/images/waiting.png"

    /// The pending polling step of the poll user and its illustration link.
    static func pendingStep(_ flow: HAAPIFlowDriver) async throws -> (Step, [String: Any]) {
        let form = try await LoginFlowTests.passwordForm(flow, authenticator: "approval")
        let pending = Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": "poll", "password": "poll"]))
        #expect(pending.type == "polling-step")
        return (pending, try #require(pending.link(rel: "illustration")))
    }

    @Test func waitingStepLinksAServerHostedPNG() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let (_, link) = try await Self.pendingStep(flow)
        #expect(link["href"] as? String == Self.imagePath, "relative, on the server")
        #expect(link["type"] as? String == "image/png")
        #expect(link["title"] as? String == "Waiting for approval")
        for accept in ["image/png", "image/*", "image/webp, image/*;q=0.8"] {
            let image = try await flow.request("GET", Self.imagePath, accept: accept)
            #expect(image.status == 200, "\(accept): \(image.text)")
            #expect(image.contentType == "image/png")
            #expect(PNGCheck.isValid(image.body))
        }
        let html = try await flow.request("GET", Self.imagePath, accept: "text/html")
        #expect(html.status == 406)
        let stillPolling = try await flow.request("GET", "/authn/authenticate/approval/poller")
        #expect(Step(stillPolling).properties["status"] as? String == "pending")
        try await harness.finish()
    }

    @Test func theImageNeedsTheFlowsCredentials() async throws {
        let harness = try await DemoServerHarness.start(strict: true)
        let flow = HAAPIFlowDriver(harness: harness)
        _ = try await Self.pendingStep(flow)
        #expect(try await flow.request("GET", Self.imagePath, accept: "image/png").status == 200)
        let url = harness.base + Self.imagePath

        let anonymous = try await harness.http.send(.GET, url, headers: [("Accept", "image/png")])
        #expect(anonymous.status == 401)
        let wrongHTU = try await flow.request("GET", Self.imagePath, accept: "image/png", proofURL: harness.base + "/authn/authenticate")
        #expect(wrongHTU.status == 401)
        #expect(wrongHTU.header("WWW-Authenticate")?.contains("invalid_dpop_proof") == true)

        let session = flow.sessionID
        flow.sessionID = nil
        let noSession = try await flow.request("GET", Self.imagePath, accept: "image/png")
        #expect(noSession.json["code"] as? String == "missing_session")
        flow.sessionID = session

        flow.sendsCookies = false
        let noCookie = try await flow.request("GET", Self.imagePath, accept: "image/png")
        #expect(noCookie.json["code"] as? String == "missing_stickiness_cookie")
        flow.sendsCookies = true

        let stranger = HAAPIFlowDriver(harness: harness)
        _ = try await stranger.start()
        stranger.sessionID = flow.sessionID
        stranger.cookies = flow.cookies
        let foreign = try await stranger.request("GET", Self.imagePath, accept: "image/png")
        #expect(foreign.status == 403)
        try await harness.finish()
    }

    @Test func theImageIsAValidPNG() throws {
        let png = PNGImage.waiting()
        #expect(PNGCheck.isValid(png))
        let (width, height) = try #require(PNGCheck.dimensions(png))
        #expect(width == 16 && height == 16)
    }
}

/// An independent check of the PNG container: signature, chunk CRCs, IHDR, one stored-deflate IDAT whose zlib
/// Adler-32 matches, IEND last.
enum PNGCheck {
    static func isValid(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.count > 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return false }
        var offset = 8, types: [String] = [], imageData: [UInt8] = []
        while offset + 12 <= bytes.count {
            let length = Int(readUInt32(bytes, offset))
            guard offset + 12 + length <= bytes.count else { return false }
            let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            guard crc32(typeAndData) == readUInt32(bytes, offset + 8 + length) else { return false }
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            types.append(type)
            if type == "IDAT" { imageData += typeAndData.dropFirst(4) }
            offset += 12 + length
        }
        guard offset == bytes.count, types.first == "IHDR", types.last == "IEND", let (width, height) = dimensions(data) else { return false }
        // zlib header, one final stored block of exactly the filtered rows, Adler-32.
        guard imageData.count > 11, (UInt16(imageData[0]) << 8 | UInt16(imageData[1])) % 31 == 0, imageData[2] == 0x01 else { return false }
        let length = Int(imageData[3]) | Int(imageData[4]) << 8
        let raw = Array(imageData[7..<(7 + length)])
        guard length == height * (1 + width * 3), imageData.count == 7 + length + 4 else { return false }
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return readUInt32(imageData, 7 + length) == (b << 16 | a)
    }

    static func dimensions(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count >= 24 else { return nil }
        return (Int(readUInt32(bytes, 16)), Int(readUInt32(bytes, 20)))
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
