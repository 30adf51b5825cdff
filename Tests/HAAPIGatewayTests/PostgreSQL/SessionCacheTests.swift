import Testing

@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

@Suite("Decoded sign-ins a replica keeps")
struct SessionCacheTests {
    private func entry(_ value: String, version: Int64 = 1) -> SessionCache<String>.Entry {
        SessionCache.Entry(session: value, version: version, document: Array(value.utf8), revision: 0)
    }

    @Test("at most its capacity: the entry kept longest ago goes first, whatever was taken or kept again meanwhile")
    func capacity() {
        let cache = SessionCache<String>(capacity: 3)
        for id in ["a", "b", "c"] { cache.keep(entry(id), id: id) }
        cache.keep(entry("a, again", version: 2), id: "a")
        cache.keep(entry("d"), id: "d")
        #expect(cache.count == 3)
        #expect(cache.take(id: "b") == nil, "the oldest kept went")
        #expect(cache.take(id: "a")?.version == 2, "kept again, it is among the newest")
        #expect(cache.take(id: "a") == nil, "taken out: one request at a time")
        #expect(cache.take(id: "c")?.session == "c")
        #expect(cache.count == 1)
    }

    @Test("kept again and again, the cache and its queue stay bounded")
    func bounded() {
        let cache = SessionCache<String>(capacity: 4)
        for round in 0..<10_000 {
            let id = "s\(round % 6)"
            _ = cache.take(id: id)
            cache.keep(entry(id, version: Int64(round)), id: id)
            #expect(cache.count <= 4)
        }
        #expect(cache.queueLength <= 2 * 4 + 64)
    }

    @Test("a capacity of zero keeps nothing")
    func disabled() {
        let cache = SessionCache<String>(capacity: 0)
        cache.keep(entry("a"), id: "a")
        #expect(cache.take(id: "a") == nil)
    }
}
