import Foundation

/// A `<form method="post">` of a gateway page: where it posts, its hidden values, its input names and button text.
struct PageForm {
    let action: String
    let hiddenValues: [(name: String, value: String)]
    let inputNames: [String]
    let button: String

    /// The first form whose button reads `button`.
    static func first(in page: String, button: String) throws -> PageForm {
        guard let form = all(in: page).first(where: { $0.button == button }) else { throw DriverError("no '\(button)' button on the page") }
        return form
    }

    /// The first form with an input of this name.
    static func first(in page: String, withInputNamed name: String) throws -> PageForm {
        guard let form = all(in: page).first(where: { $0.inputNames.contains(name) }) else { throw DriverError("no '\(name)' input on the page") }
        return form
    }

    /// The urlencoded body: hidden values, then `values`.
    func encoded(with values: [String: String]) -> String {
        let pairs = hiddenValues + values.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        return pairs.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }.joined(separator: "&")
    }

    private static let formPattern = try! NSRegularExpression(
        pattern: #"<form method="post" action="([^"]+)"[^>]*>(.*?)</form>"#,
        options: [.dotMatchesLineSeparators]
    )
    private static let inputPattern = try! NSRegularExpression(pattern: #"<input ([^>]*)>"#)
    private static let buttonPattern = try! NSRegularExpression(pattern: #"<button[^>]*>(.*?)</button>"#, options: [.dotMatchesLineSeparators])

    private static func all(in page: String) -> [PageForm] {
        formPattern.matches(in: page, range: NSRange(page.startIndex..., in: page)).compactMap { match in
            guard let actionRange = Range(match.range(at: 1), in: page), let bodyRange = Range(match.range(at: 2), in: page) else { return nil }
            let body = String(page[bodyRange])
            var hidden: [(String, String)] = []
            var names: [String] = []
            for tag in captures(inputPattern, in: body) {
                guard let name = attribute("name", of: tag) else { continue }
                names.append(name)
                if attribute("type", of: tag) == "hidden" { hidden.append((name, unescaped(attribute("value", of: tag) ?? ""))) }
            }
            return PageForm(
                action: unescaped(String(page[actionRange])),
                hiddenValues: hidden,
                inputNames: names,
                button: unescaped(captures(buttonPattern, in: body).first ?? "")
            )
        }
    }

    private static func captures(_ pattern: NSRegularExpression, in text: String) -> [String] {
        pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    private static func attribute(_ name: String, of tag: String) -> String? {
        guard let range = tag.range(of: " \(name)=\"") ?? (tag.hasPrefix("\(name)=\"") ? tag.range(of: "\(name)=\"") : nil) else { return nil }
        return String(tag[range.upperBound...].prefix { $0 != "\"" })
    }

    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }
}
