/// A HAAPI link (`href`, `rel`, optional `title` and media `type`).
struct Link: Encodable, Sendable {
    var href: String
    var rel: String
    var title: String?
    var type: String?
}
