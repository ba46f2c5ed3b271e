#if Macros
    import SwiftCompilerPlugin
    import SwiftSyntaxMacros

    /// The compiler plugin that provides Strata's macros.
    @main
    struct StrataMacrosPlugin: CompilerPlugin {
        let providingMacros: [any Macro.Type] = [
            DatabaseRecordMacro.self, DatabaseColumnMacro.self, DatabaseTransientMacro.self,
        ]
    }
#else
    // Without the Macros trait the plugin is an empty program: nothing depends
    // on it, and swift-syntax is neither resolved nor built.
    @main
    enum StrataMacrosPlugin {
        static func main() {}
    }
#endif
