import Foundation

/// A form read from a gateway page, as a browser would submit it.
struct ScrapedForm {
    let action: String
    let classes: String
    let button: String
    /// Inputs by name: hidden and visible with their current values (checkboxes only when checked).
    var fields: [String: String]
    /// Input names and types, in order.
    let inputs: [(name: String, type: String)]

    /// All `<form method="post">` elements of a page.
    static func all(in html: String) -> [ScrapedForm] {
        let formPattern = try! NSRegularExpression(
            pattern: #"<form method="post" action="([^"]+)"(?: class="([^"]*)")?[^>]*>(.*?)</form>"#,
            options: [.dotMatchesLineSeparators]
        )
        let range = NSRange(html.startIndex..., in: html)
        return formPattern.matches(in: html, range: range).map { match in
            let action = unescape(String(html[Range(match.range(at: 1), in: html)!]))
            let classes = match.range(at: 2).location == NSNotFound ? "" : String(html[Range(match.range(at: 2), in: html)!])
            let body = String(html[Range(match.range(at: 3), in: html)!])
            var fields: [String: String] = [:]
            var inputs: [(String, String)] = []
            for tag in matches(#"<input ([^>]*)>"#, in: body) {
                guard let name = attribute("name", in: tag) else { continue }
                let type = attribute("type", in: tag) ?? "text"
                inputs.append((name, type))
                if type == "checkbox" {
                    if tag.contains(" checked") { fields[name] = "on" }
                } else {
                    fields[name] = attribute("value", in: tag).map(unescape) ?? ""
                }
            }
            let button = matches(#"<button[^>]*>(.*?)</button>"#, in: body).first.map(unescape) ?? ""
            return ScrapedForm(action: action, classes: classes, button: button, fields: fields, inputs: inputs)
        }
    }

    var urlEncoded: String {
        fields.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) }
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        matches(#"(?:^|\s)\#(name)="([^"]*)""#, in: tag).first
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
