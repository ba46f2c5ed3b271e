#if Macros
    import SwiftDiagnostics
    import SwiftSyntax
    import SwiftSyntaxMacros

    /// `@DatabaseRecord`: writes, in an extension of a struct, the record code
    /// that a careful engineer would write by hand: `init(row:)`,
    /// `encode(to:)`, `enum Columns`, `databaseTableName` and `didInsert(_:)`.
    ///
    /// The members are written in an extension rather than in the struct, so
    /// that the struct keeps its memberwise initializer. A member that the
    /// struct declares in its body is not written.
    public struct DatabaseRecordMacro: ExtensionMacro {
        /// The extension with the record members, or nothing and diagnostics.
        public static func expansion(
            of node: AttributeSyntax,
            attachedTo declaration: some DeclGroupSyntax,
            providingExtensionsOf type: some TypeSyntaxProtocol,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [ExtensionDeclSyntax] {
            guard let structDecl = declaration.as(StructDeclSyntax.self) else {
                context.diagnose(notAStruct(node: node, declaration: declaration))
                return []
            }
            var diagnostics: [Diagnostic] = []
            let record = RecordModel(structDecl, diagnostics: &diagnostics)
            for diagnostic in diagnostics {
                context.diagnose(diagnostic)
            }
            if diagnostics.contains(where: { $0.diagMessage.severity == .error }) {
                return []
            }
            let members = record.generatedMembers()
            if members.isEmpty {
                return []
            }
            let body = members.joined(separator: "\n\n")
            let decl: DeclSyntax = """
                extension \(type.trimmed) {
                \(raw: body)
                }
                """
            guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
            return [extensionDecl]
        }

        /// The diagnostic of the macro on an enum, a class or an actor, with a
        /// fix-it that makes a class a struct.
        static func notAStruct(node: AttributeSyntax, declaration: some DeclGroupSyntax) -> Diagnostic {
            if let classDecl = declaration.as(ClassDeclSyntax.self) {
                let structKeyword = TokenSyntax.keyword(.struct)
                    .with(\.leadingTrivia, classDecl.classKeyword.leadingTrivia)
                    .with(\.trailingTrivia, classDecl.classKeyword.trailingTrivia)
                return Diagnostic(
                    node: Syntax(node),
                    message: RecordDiagnostic.notAStruct(kind: "a class"),
                    fixIt: FixIt(
                        message: RecordFixIt.makeStruct,
                        changes: [.replace(oldNode: Syntax(classDecl.classKeyword), newNode: Syntax(structKeyword))]))
            }
            let kind: String
            if declaration.is(EnumDeclSyntax.self) {
                kind = "an enum"
            } else if declaration.is(ActorDeclSyntax.self) {
                kind = "an actor"
            } else if declaration.is(ProtocolDeclSyntax.self) {
                kind = "a protocol"
            } else {
                kind = "an extension"
            }
            return Diagnostic(node: Syntax(node), message: RecordDiagnostic.notAStruct(kind: kind))
        }
    }

    /// `@DatabaseColumn("name")`: a marker read by `@DatabaseRecord`. It
    /// generates nothing.
    public struct DatabaseColumnMacro: PeerMacro {
        /// Nothing: `@DatabaseRecord` reads the attribute. Diagnoses a
        /// misplaced attribute or a name that is not a string literal.
        public static func expansion(
            of node: AttributeSyntax,
            providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            if !declaration.is(VariableDeclSyntax.self) {
                context.diagnose(
                    Diagnostic(node: Syntax(node), message: RecordDiagnostic.markerOnNonProperty("DatabaseColumn")))
            } else if columnName(in: node) == nil {
                context.diagnose(Diagnostic(node: Syntax(node), message: RecordDiagnostic.columnNameNotLiteral))
            }
            return []
        }

        /// The column name of `@DatabaseColumn("name")`, when it is a plain
        /// string literal.
        static func columnName(in attribute: AttributeSyntax) -> String? {
            guard case .argumentList(let arguments) = attribute.arguments,
                let first = arguments.first,
                let literal = first.expression.as(StringLiteralExprSyntax.self),
                literal.segments.count == 1,
                case .stringSegment(let segment) = literal.segments.first
            else { return nil }
            return segment.content.text
        }
    }

    /// `@DatabaseTransient`: a marker read by `@DatabaseRecord`. It generates
    /// nothing.
    public struct DatabaseTransientMacro: PeerMacro {
        /// Nothing: `@DatabaseRecord` reads the attribute. Diagnoses a
        /// misplaced attribute.
        public static func expansion(
            of node: AttributeSyntax,
            providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            if !declaration.is(VariableDeclSyntax.self) {
                context.diagnose(
                    Diagnostic(node: Syntax(node), message: RecordDiagnostic.markerOnNonProperty("DatabaseTransient")))
            }
            return []
        }
    }
#endif
