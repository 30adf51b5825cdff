import HAAPI

@testable import HAAPIGateway

extension TemplateValue {
    /// The spec's JSON data as a context: numbers as their text (`85`, `1.21`, as the gateway's contexts hold numbers),
    /// `null` as ``TemplateValue/null``; the spec's lambdas (objects in `~lambdas.json`) stay the objects they are in JSON.
    init(specData json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .number: self = .string(json.scalarText ?? "")
        case .string(let text): self = .string(text)
        case .array(let items): self = .list(items.map(TemplateValue.init(specData:)))
        case .object(let members): self = .object(members.mapValues(TemplateValue.init(specData:)))
        }
    }
}
