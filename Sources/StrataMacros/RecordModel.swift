#if Macros
    import SwiftDiagnostics
    import SwiftSyntax

    /// A stored property of a record that is a column.
    struct ColumnProperty {
        /// The property name, as written (backticks included).
        var identifier: String
        /// The property name without backticks.
        var name: String
        /// The column name: the property name, or the one of `@DatabaseColumn`.
        var column: String
        /// The type, without its optional layer when `isOptional`.
        var type: String
        /// Whether the type is `T?`, `T!` or `Optional<T>`.
        var isOptional: Bool
    }

    /// What `@DatabaseRecord` reads from a struct: its stored column
    /// properties, the members it declares itself, and its access level.
    struct RecordModel {
        var typeName: String
        /// `public ` or `package ` (with a space), or empty.
        var accessPrefix: String
        var columns: [ColumnProperty] = []
        var declaresInitRow = false
        var declaresEncodeTo = false
        var declaresColumns = false
        var declaresTableName = false
        var declaresDidInsert = false
        /// Whether the struct names `FetchableRecord` among its protocols:
        /// `init(row:)` is written for those only.
        var isFetchable = false
        /// Whether the struct names `EncodableRecord`, `PersistableRecord`
        /// or `MutablePersistableRecord`: `encode(to:)` is written for
        /// those only.
        var isEncodable = false
        /// Whether the struct names `PersistableRecord` or
        /// `MutablePersistableRecord`: the INSERT binds the columns itself.
        var isPersistable = false
        /// Whether the struct names `MutablePersistableRecord`: `didInsert`
        /// is written for those only (a `PersistableRecord`'s can not
        /// mutate).
        var isMutablePersistable = false
        /// The `id` column, when it is an optional integer that `didInsert`
        /// sets, and the integer type.
        var insertedIDType: String?

        static let integerTypes: Set<String> = [
            "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        ]

        init(_ decl: StructDeclSyntax, diagnostics: inout [Diagnostic]) {
            typeName = decl.name.text
            accessPrefix = ""
            for modifier in decl.modifiers {
                switch modifier.name.tokenKind {
                case .keyword(.public), .keyword(.open): accessPrefix = "public "
                case .keyword(.package): accessPrefix = "package "
                default: break
                }
            }
            if let inheritance = decl.inheritanceClause {
                for inherited in inheritance.inheritedTypes {
                    var name = inherited.type.trimmedDescription
                    if name.hasPrefix("Strata.") { name = String(name.dropFirst("Strata.".count)) }
                    switch name {
                    case "FetchableRecord": isFetchable = true
                    case "EncodableRecord": isEncodable = true
                    case "PersistableRecord":
                        isEncodable = true
                        isPersistable = true
                    case "MutablePersistableRecord":
                        isEncodable = true
                        isPersistable = true
                        isMutablePersistable = true
                    default: break
                    }
                }
            }
            for member in decl.memberBlock.members {
                readMember(member.decl, diagnostics: &diagnostics)
            }
        }

        private mutating func readMember(_ decl: DeclSyntax, diagnostics: inout [Diagnostic]) {
            if let initDecl = decl.as(InitializerDeclSyntax.self) {
                let labels = initDecl.signature.parameterClause.parameters.map { $0.firstName.text }
                if labels == ["row"] { declaresInitRow = true }
            } else if let function = decl.as(FunctionDeclSyntax.self) {
                let parameters = function.signature.parameterClause.parameters
                if function.name.text == "encode", parameters.count == 1, let parameter = parameters.first,
                    parameter.firstName.text == "to", parameter.type.trimmedDescription.contains("PersistenceContainer")
                {
                    declaresEncodeTo = true
                }
                if function.name.text == "didInsert", parameters.count == 1 {
                    declaresDidInsert = true
                }
            } else if let enumDecl = decl.as(EnumDeclSyntax.self), enumDecl.name.text == "Columns" {
                declaresColumns = true
            } else if let structDecl = decl.as(StructDeclSyntax.self), structDecl.name.text == "Columns" {
                declaresColumns = true
            } else if let alias = decl.as(TypeAliasDeclSyntax.self), alias.name.text == "Columns" {
                declaresColumns = true
            } else if let variable = decl.as(VariableDeclSyntax.self) {
                readVariable(variable, diagnostics: &diagnostics)
            }
        }

        private mutating func readVariable(_ variable: VariableDeclSyntax, diagnostics: inout [Diagnostic]) {
            let isStatic = variable.modifiers.contains {
                $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
            }
            if isStatic {
                for binding in variable.bindings
                where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "databaseTableName" {
                    declaresTableName = true
                }
                return
            }
            if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) {
                return
            }
            var columnName: String?
            var isTransient = false
            var transientAttribute: AttributeSyntax?
            for element in variable.attributes {
                guard let attribute = element.as(AttributeSyntax.self) else { continue }
                switch attribute.attributeName.trimmedDescription {
                case "DatabaseColumn", "Strata.DatabaseColumn":
                    columnName = DatabaseColumnMacro.columnName(in: attribute)
                case "DatabaseTransient", "Strata.DatabaseTransient":
                    isTransient = true
                    transientAttribute = attribute
                default:
                    break
                }
            }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            let bindings = Array(variable.bindings)
            for (position, binding) in bindings.enumerated() {
                if let accessors = binding.accessorBlock, !Self.isObserversOnly(accessors) {
                    continue  // computed
                }
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let identifier = pattern.identifier.text
                let name = identifier.trimmingBackticks()
                if isTransient {
                    if binding.initializer == nil && binding.typeAnnotation?.type.isOptionalType != true {
                        diagnostics.append(Self.transientWithoutDefault(binding, attribute: transientAttribute))
                    }
                    continue
                }
                if isLet && binding.initializer != nil {
                    diagnostics.append(Self.letWithDefault(variable, binding: binding))
                    continue
                }
                // `var a, b: Int`: the type of `a` is written after `b`.
                let typeSyntax =
                    bindings[position...].lazy.compactMap { $0.typeAnnotation?.type }.first
                    ?? binding.initializer?.value.literalType
                guard let typeSyntax else {
                    diagnostics.append(
                        Diagnostic(node: Syntax(binding.pattern), message: RecordDiagnostic.missingType(name: name)))
                    continue
                }
                if let reason = typeSyntax.unstorableReason {
                    diagnostics.append(Self.unstorable(variable, binding: binding, name: name, reason: reason))
                    continue
                }
                let (type, isOptional) = typeSyntax.optionalWrapped
                let property = ColumnProperty(
                    identifier: identifier, name: name, column: columnName ?? name, type: type, isOptional: isOptional)
                columns.append(property)
                if name == "id" && isOptional && Self.integerTypes.contains(type) {
                    insertedIDType = type
                    if isLet && isMutablePersistable {
                        diagnostics.append(Self.letID(variable))
                    }
                }
            }
        }

        static func isObserversOnly(_ accessors: AccessorBlockSyntax) -> Bool {
            guard case .accessors(let list) = accessors.accessors else { return false }
            return list.allSatisfy {
                $0.accessorSpecifier.tokenKind == .keyword(.willSet)
                    || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
            }
        }

        // MARK: - Diagnostics

        static func transientWithoutDefault(_ binding: PatternBindingSyntax, attribute: AttributeSyntax?) -> Diagnostic
        {
            let name = binding.pattern.trimmedDescription
            var newBinding = binding
            newBinding.initializer = InitializerClauseSyntax(
                equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space),
                value: ExprSyntax(EditorPlaceholderExprSyntax(placeholder: .identifier("<#value#>"))))
            if var annotation = newBinding.typeAnnotation {
                annotation.type = annotation.type.trimmed
                newBinding.typeAnnotation = annotation
            }
            return Diagnostic(
                node: Syntax(binding.pattern),
                message: RecordDiagnostic.transientWithoutDefault(name: name),
                fixIt: FixIt(
                    message: RecordFixIt.addDefaultValue,
                    changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(newBinding))]))
        }

        static func letWithDefault(_ variable: VariableDeclSyntax, binding: PatternBindingSyntax) -> Diagnostic {
            Diagnostic(
                node: Syntax(binding.pattern),
                message: RecordDiagnostic.letWithDefault(name: binding.pattern.trimmedDescription),
                fixIt: makeVarFixIt(variable))
        }

        static func letID(_ variable: VariableDeclSyntax) -> Diagnostic {
            Diagnostic(
                node: Syntax(variable.bindingSpecifier),
                message: RecordDiagnostic.letID,
                fixIt: makeVarFixIt(variable))
        }

        static func makeVarFixIt(_ variable: VariableDeclSyntax) -> FixIt {
            let varKeyword = TokenSyntax.keyword(.var)
                .with(\.leadingTrivia, variable.bindingSpecifier.leadingTrivia)
                .with(\.trailingTrivia, variable.bindingSpecifier.trailingTrivia)
            return FixIt(
                message: RecordFixIt.makeVar,
                changes: [.replace(oldNode: Syntax(variable.bindingSpecifier), newNode: Syntax(varKeyword))])
        }

        static func unstorable(
            _ variable: VariableDeclSyntax, binding: PatternBindingSyntax, name: String, reason: String
        ) -> Diagnostic {
            var newVariable = variable
            let attribute = AttributeSyntax(
                atSign: .atSignToken(leadingTrivia: variable.leadingTrivia),
                attributeName: IdentifierTypeSyntax(name: .identifier("DatabaseTransient")),
                trailingTrivia: .space)
            newVariable.leadingTrivia = []
            newVariable.attributes = [.attribute(attribute)] + variable.attributes.map { $0 }
            return Diagnostic(
                node: Syntax(binding),
                message: RecordDiagnostic.unstorableType(name: name, reason: reason),
                fixIt: FixIt(
                    message: RecordFixIt.markTransient,
                    changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(newVariable))]))
        }
    }

    extension String {
        func trimmingBackticks() -> String {
            if hasPrefix("`") && hasSuffix("`") && count >= 2 {
                return String(dropFirst().dropLast())
            }
            return self
        }
    }

    extension ExprSyntax {
        /// The type that Swift gives a literal without context: `0` is an
        /// `Int`, `0.5` a `Double`, `"a"` a `String`, `true` a `Bool`.
        var literalType: TypeSyntax? {
            let name: String
            if self.is(IntegerLiteralExprSyntax.self) {
                name = "Int"
            } else if self.is(FloatLiteralExprSyntax.self) {
                name = "Double"
            } else if self.is(StringLiteralExprSyntax.self) {
                name = "String"
            } else if self.is(BooleanLiteralExprSyntax.self) {
                name = "Bool"
            } else if let prefix = self.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
                return prefix.expression.literalType
            } else {
                return nil
            }
            return TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
        }
    }

    extension TypeSyntax {
        /// Whether the type is `T?`, `T!` or `Optional<T>`.
        var isOptionalType: Bool {
            optionalWrapped.isOptional
        }

        /// The wrapped type of an optional, as text, or the type itself.
        var optionalWrapped: (type: String, isOptional: Bool) {
            if let optional = self.as(OptionalTypeSyntax.self) {
                return (optional.wrappedType.trimmedDescription, true)
            }
            if let optional = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                return (optional.wrappedType.trimmedDescription, true)
            }
            if let identifier = self.as(IdentifierTypeSyntax.self),
                identifier.name.text == "Optional" || identifier.name.text == "Swift.Optional",
                let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
                let argument = arguments.first
            {
                return (argument.argument.trimmedDescription, true)
            }
            return (trimmedDescription, false)
        }

        /// Why a value of this type can not be a column, when the syntax says
        /// so: functions, tuples, metatypes, opaque types and existentials of
        /// protocol compositions are neither database values nor `Codable`.
        var unstorableReason: String? {
            var type = self
            if let optional = type.as(OptionalTypeSyntax.self) { type = optional.wrappedType }
            if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { type = optional.wrappedType }
            if let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType }
            if type.is(FunctionTypeSyntax.self) { return "a function" }
            if let tuple = type.as(TupleTypeSyntax.self) {
                if tuple.elements.count == 1, let element = tuple.elements.first {
                    return element.type.unstorableReason
                }
                return "a tuple"
            }
            if type.is(MetatypeTypeSyntax.self) { return "a metatype" }
            if let some = type.as(SomeOrAnyTypeSyntax.self) {
                return some.someOrAnySpecifier.tokenKind == .keyword(.some) ? "an opaque type" : "an existential"
            }
            return nil
        }
    }
#endif
