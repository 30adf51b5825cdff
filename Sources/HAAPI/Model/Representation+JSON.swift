extension Representation {
    /// The step as JSON: as received when it kept its raw JSON, else written from its typed members so that decoding it
    /// with ``init(json:keepingRawJSON:)`` gives an equal step (what a saved sign-in keeps).
    public var json: JSONValue { StepJSON.json(of: self) }

    /// ``json`` as compact text, the same for equal steps (what a saved flow's `currentStep` holds): decode it with
    /// ``HAAPIClient/decodeStep(jsonText:)``.
    public var jsonText: String { json.jsonText }
}
