import Foundation
import Testing

@testable import HAAPIGateway

/// The spool as a journal: one line per change, rewritten only when done lines outnumber the pending deliveries.
@Suite("Callback spool journal")
struct CallbackSpoolTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString).jsonl").path
    }

    static func entry(_ id: String, sink: String = "file:/tmp/t") -> SpooledDelivery {
        SpooledDelivery(sink: sink, delivery: CallbackDelivery(id: id, document: Array(#"{"outcome":"cancelled"}"#.utf8), outcome: "cancelled"))
    }

    @Test("deliveries added and done are replayed per sink, in order; the file is 0600")
    func replay() throws {
        let path = Self.path()
        var spool = CallbackSpool(path: path)
        try spool.add([Self.entry("a"), Self.entry("a", sink: "https://hook"), Self.entry("b")])
        _ = try spool.markDone(id: "a", sink: "file:/tmp/t")
        #expect(try CallbackSpool.read(path).map { "\($0.id) \($0.sink)" } == ["a https://hook", "b file:/tmp/t"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("each change appends a line; once done lines outnumber the pending ones the file holds only those, and with none pending it is gone")
    func compaction() throws {
        let path = Self.path()
        var spool = CallbackSpool(path: path)
        let ids = (0..<500).map { "id-\($0)" }
        for id in ids { try spool.add([Self.entry(id)]) }
        let full = try Data(contentsOf: URL(fileURLWithPath: path)).count
        var rewrites = 0
        for id in ids.dropLast(10) where try spool.markDone(id: id, sink: "file:/tmp/t") {
            rewrites += 1
            let pending = try CallbackSpool.read(path).count
            try spool.rewrite(Array(ids.suffix(pending)).map { Self.entry($0) })
        }
        #expect(rewrites >= 1 && rewrites <= 12, "rewritten now and then, not on every change: \(rewrites)")
        #expect(try CallbackSpool.read(path).map(\.id) == Array(ids.suffix(10)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count < full / 4, "the file shrank with the pending deliveries")
        var last = false
        for id in ids.suffix(10) { last = try spool.markDone(id: id, sink: "file:/tmp/t") }
        #expect(last, "nothing pending: a rewrite is due")
        try spool.rewrite([])
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a last line cut short by a crash is ignored; damage before it is refused; the array of an earlier version is read")
    func damageAndEarlierFormat() throws {
        let path = Self.path()
        var spool = CallbackSpool(path: path)
        try spool.add([Self.entry("kept")])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"add":{"sink":"file:/tmp/t","id":"cut"#.utf8))
        try handle.close()
        #expect(try CallbackSpool.read(path).map(\.id) == ["kept"])
        try Data("garbage\n".utf8 + (try Data(contentsOf: URL(fileURLWithPath: path)))).write(to: URL(fileURLWithPath: path))
        #expect(throws: GatewayError.self) { try CallbackSpool.read(path) }
        let earlier = Self.path()
        try JSONEncoder().encode([Self.entry("old-1"), Self.entry("old-2")]).write(to: URL(fileURLWithPath: earlier))
        #expect(try CallbackSpool.read(earlier).map(\.id) == ["old-1", "old-2"])
    }
}
