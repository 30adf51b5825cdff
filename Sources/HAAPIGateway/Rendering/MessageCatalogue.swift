import Foundation

/// The gateway's texts by language, from `messages/<lang>.json` in the templates directory with the override directory's
/// files layered over them key by key. English (`en`) must define every ``MessageKey``; another language may leave keys
/// out, and those fall back to English.
struct MessageCatalogue: Sendable {
    /// The language every other falls back to.
    static let fallbackLanguage = "en"

    /// Texts by language tag (lowercase) and key.
    let texts: [String: [String: String]]
    /// Every text of each language with English filling its gaps, merged once as a template value (every page carries
    /// them as `t`).
    private let templateTexts: [String: TemplateValue]

    /// The languages available, fallback first.
    var languages: [String] { [Self.fallbackLanguage] + texts.keys.filter { $0 != Self.fallbackLanguage }.sorted() }

    /// Checks that the fallback language is complete and that no file names an unknown key.
    /// - Throws: ``GatewayError`` (code `configuration`) listing what is wrong.
    init(texts: [String: [String: String]]) throws(GatewayError) {
        var problems: [String] = []
        let known = Set(MessageKey.allCases.map(\.rawValue))
        let english = texts[Self.fallbackLanguage] ?? [:]
        let missing = MessageKey.allCases.map(\.rawValue).filter { english[$0] == nil }
        if !missing.isEmpty { problems.append("messages/en.json lacks \(missing.joined(separator: ", "))") }
        for (language, entries) in texts.sorted(by: { $0.key < $1.key }) {
            let unknown = entries.keys.filter { !known.contains($0) }.sorted()
            if !unknown.isEmpty { problems.append("messages/\(language).json has unknown keys \(unknown.joined(separator: ", "))") }
        }
        guard problems.isEmpty else { throw GatewayError(.configuration, problems.joined(separator: "; ")) }
        self.texts = texts
        self.templateTexts = texts.mapValues { .object(TemplateObject(english.merging($0) { _, chosen in chosen }.mapValues(TemplateValue.string))) }
    }

    /// The text of `key` in `language` (falling back to English), with `{name}` placeholders replaced.
    func text(_ key: MessageKey, language: String, arguments: [String: String] = [:]) -> String {
        var text = texts[language]?[key.rawValue] ?? texts[Self.fallbackLanguage]?[key.rawValue] ?? key.rawValue
        for (name, value) in arguments { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// The text of a page text in `language`.
    func text(_ pageText: PageText, language: String) -> String {
        switch pageText {
        case .gateway(let key, let arguments): text(key, language: language, arguments: arguments)
        case .upstream(let text): text
        }
    }

    /// Every text of `language` (with English filling gaps), for templates as `t`.
    func templateStrings(for language: String) -> TemplateValue {
        templateTexts[language] ?? templateTexts[Self.fallbackLanguage] ?? .object([:])
    }

    /// The best available language for an `Accept-Language` header (RFC 9110 §12.5.4: quality values, then order;
    /// `sv-SE` matches `sv`), else English.
    func language(for acceptLanguage: String?) -> String {
        guard let acceptLanguage else { return Self.fallbackLanguage }
        var ranges: [(tag: String, quality: Double, order: Int)] = []
        for (order, part) in acceptLanguage.split(separator: ",").prefix(32).enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased(), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0 { ranges.append((tag, quality, order)) }
        }
        for range in ranges.sorted(by: { ($0.quality, -$0.order) > ($1.quality, -$1.order) }) {
            if range.tag == "*" { return Self.fallbackLanguage }
            if texts[range.tag] != nil { return range.tag }
            let primary = String(range.tag.prefix { $0 != "-" })
            if texts[primary] != nil { return primary }
        }
        return Self.fallbackLanguage
    }

    /// Reads `messages/*.json` of each layer of templates in turn (the built-in or `templates.directory`'s, then the
    /// override directory's), key by key.
    /// - Throws: ``GatewayError`` (code `configuration`) for malformed files, or an incomplete English catalogue.
    static func load(layers: [TemplateFiles]) throws(GatewayError) -> MessageCatalogue {
        var texts: [String: [String: String]] = [:]
        for layer in layers {
            for (file, data) in layer.folder("messages").sorted(by: { $0.key < $1.key }) where file.hasSuffix(".json") {
                let language = String(file.dropLast(".json".count)).lowercased()
                guard language.range(of: "^[a-z]{2,3}(-[a-z0-9]{2,8})*$", options: .regularExpression) != nil else {
                    throw GatewayError(.configuration, "messages/\(file): the name must be a language tag such as en.json or pt-br.json")
                }
                guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    throw GatewayError(.configuration, "messages/\(file) is not a JSON object of texts")
                }
                var entries = texts[language] ?? [:]
                for (key, value) in object {
                    guard let text = value as? String else { throw GatewayError(.configuration, "messages/\(file): \(key) must be a string") }
                    entries[key] = text
                }
                texts[language] = entries
            }
        }
        return try MessageCatalogue(texts: texts)
    }
}
