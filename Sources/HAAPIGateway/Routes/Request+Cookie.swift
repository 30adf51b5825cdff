import Hummingbird

extension Request {
    /// The value of the request's first cookie named `name`, read straight from the `Cookie` headers: what
    /// `cookies[name]?.value` answers, without making every cookie of the header a `Cookie` first. Each request reads
    /// the sign-in's cookie, and the page path read it twice (3 % of a page in a profile, `artifacts/profiles/`).
    func cookieValue(_ name: String) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";", omittingEmptySubsequences: false) {
                let pair = pair.drop { $0.isWhitespace }
                guard let equals = pair.firstIndex(of: "="), pair[..<equals] == name else { continue }
                // As Hummingbird reads it: the first cookie of the name decides, and an empty value is no cookie.
                let value = pair[pair.index(after: equals)...]
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }
}
