#if Macros
    import StrataMacros
    import SwiftSyntaxMacroExpansion
    import SwiftSyntaxMacros
    import SwiftSyntaxMacrosGenericTestSupport
    import Testing

    /// The macros under test, by attribute name.
    let recordMacros: [String: MacroSpec] = [
        "DatabaseRecord": MacroSpec(type: DatabaseRecordMacro.self),
        "DatabaseColumn": MacroSpec(type: DatabaseColumnMacro.self),
        "DatabaseTransient": MacroSpec(type: DatabaseTransientMacro.self),
    ]

    /// Expands the record macros in `source` and checks the expansion, its
    /// diagnostics and, when given, the source once the fix-its are applied.
    /// Failures are recorded as issues of the running test.
    func assertRecordExpansion(
        _ source: String,
        expandedSource: String,
        diagnostics: [DiagnosticSpec] = [],
        fixedSource: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        assertMacroExpansion(
            source,
            expandedSource: expandedSource,
            diagnostics: diagnostics,
            macroSpecs: recordMacros,
            fixedSource: fixedSource,
            failureHandler: { failure in
                Issue.record(
                    Comment(rawValue: failure.message),
                    sourceLocation: SourceLocation(
                        fileID: failure.location.fileID, filePath: failure.location.filePath,
                        line: failure.location.line, column: failure.location.column))
            },
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
#endif
