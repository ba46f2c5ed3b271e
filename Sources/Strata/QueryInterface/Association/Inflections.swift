import Foundation

/// English pluralization and singularization, with rules that can be
/// extended. Association keys come from it: a to-many association to the
/// `book` table is keyed `books`.
///
/// ```swift
/// Inflections.default.pluralize("player")     // "players"
/// Inflections.default.singularize("people")   // "person"
/// Inflections.default.irregularSuffix("foot", "feet")
/// ```
///
/// Rules are regular expressions matched against the end of a string; the
/// last added rule is tried first. Uncountable words are left unchanged.
public struct Inflections: Sendable {
    /// A regular expression and its replacement template (`$1` for groups).
    private struct Rule {
        let regex: NSRegularExpression
        let template: String

        /// The string with the rule applied, or nil if it does not match.
        func apply(_ string: String) -> String? {
            let range = NSRange(string.startIndex..., in: string)
            guard regex.firstMatch(in: string, range: range) != nil else { return nil }
            return regex.stringByReplacingMatches(in: string, range: range, withTemplate: template)
        }
    }

    /// Plural rules, the most recently added last.
    private var pluralRules: [Rule] = [] {
        didSet { cache = Cache() }
    }
    /// Singular rules, the most recently added last.
    private var singularRules: [Rule] = [] {
        didSet { cache = Cache() }
    }
    /// Lowercased words that are their own plural.
    private var uncountables: Set<String> = [] {
        didSet { cache = Cache() }
    }
    /// Results of `pluralize` and `singularize`: association keys ask for
    /// the same few table names over and over. Each change of the rules
    /// starts a new cache.
    private var cache = Cache()

    private final class Cache: Sendable {
        let plurals = Mutex<[String: String]>([:])
        let singulars = Mutex<[String: String]>([:])
    }

    /// Inflections without any rule: strings are left unchanged.
    public init() {}

    /// The inflections used by association keys. Add rules to it, before
    /// associations are defined, to fix the keys of unusual table names.
    nonisolated(unsafe) public static var `default`: Inflections = .english

    /// Adds a pluralization rule: strings that match `pattern` are
    /// pluralized by replacing the match with `template`.
    ///
    /// ```swift
    /// inflections.plural("(quiz)$", "$1zes")
    /// ```
    public mutating func plural(
        _ pattern: String, options: NSRegularExpression.Options = [.caseInsensitive], _ template: String
    ) {
        pluralRules.append(Rule(regex: Self.regex(pattern, options), template: template))
    }

    /// Adds a singularization rule: strings that match `pattern` are
    /// singularized by replacing the match with `template`.
    ///
    /// ```swift
    /// inflections.singular("(quiz)zes$", "$1")
    /// ```
    public mutating func singular(
        _ pattern: String, options: NSRegularExpression.Options = [.caseInsensitive], _ template: String
    ) {
        singularRules.append(Rule(regex: Self.regex(pattern, options), template: template))
    }

    /// Adds a word that is its own plural, such as "information".
    /// Strings that end with such a word are left unchanged.
    public mutating func uncountableWords(_ words: [String]) {
        for word in words {
            uncountables.insert(word.lowercased())
        }
    }

    /// Adds an irregular pair: strings that end with `singular` are
    /// pluralized with `plural`, and the reverse. The first letter keeps
    /// its case.
    ///
    /// ```swift
    /// inflections.irregularSuffix("man", "men")
    /// inflections.pluralize("woman") // "women"
    /// ```
    public mutating func irregularSuffix(_ singular: String, _ plural: String) {
        uncountables.remove(singular.lowercased())
        uncountables.remove(plural.lowercased())
        let singularHead = NSRegularExpression.escapedPattern(for: String(singular.prefix(1)))
        let singularTail = NSRegularExpression.escapedPattern(for: String(singular.dropFirst()))
        let pluralHead = NSRegularExpression.escapedPattern(for: String(plural.prefix(1)))
        let pluralTail = NSRegularExpression.escapedPattern(for: String(plural.dropFirst()))
        let pluralTemplate = NSRegularExpression.escapedTemplate(for: String(plural.dropFirst()))
        let singularTemplate = NSRegularExpression.escapedTemplate(for: String(singular.dropFirst()))
        if singular.prefix(1).lowercased() == plural.prefix(1).lowercased() {
            self.plural("(\(singularHead))\(singularTail)$", "$1" + pluralTemplate)
            self.plural("(\(pluralHead))\(pluralTail)$", "$1" + pluralTemplate)
            self.singular("(\(singularHead))\(singularTail)$", "$1" + singularTemplate)
            self.singular("(\(pluralHead))\(pluralTail)$", "$1" + singularTemplate)
        } else {
            let pluralWord = NSRegularExpression.escapedTemplate(for: plural)
            let singularWord = NSRegularExpression.escapedTemplate(for: singular)
            self.plural("\(singularHead)\(singularTail)$", pluralWord)
            self.plural("\(pluralHead)\(pluralTail)$", pluralWord)
            self.singular("\(singularHead)\(singularTail)$", singularWord)
            self.singular("\(pluralHead)\(pluralTail)$", singularWord)
        }
    }

    /// The plural of the last word of the string: `player` → `players`,
    /// `category` → `categories`, `postalAddress` → `postalAddresses`.
    public func pluralize(_ string: String) -> String {
        if let plural = cache.plurals.withLock({ $0[string] }) { return plural }
        let plural = inflect(string, with: pluralRules)
        cache.plurals.withLock { $0[string] = plural }
        return plural
    }

    /// The singular of the last word of the string: `players` → `player`,
    /// `categories` → `category`, `people` → `person`.
    public func singularize(_ string: String) -> String {
        if let singular = cache.singulars.withLock({ $0[string] }) { return singular }
        let singular = inflect(string, with: singularRules)
        cache.singulars.withLock { $0[string] = singular }
        return singular
    }

    /// The string with the first matching rule applied. Trailing digits are
    /// kept at the end, out of reach of the rules: `player2` → `players2`.
    private func inflect(_ string: String, with rules: [Rule]) -> String {
        let digits = string.reversed().prefix { $0.isASCII && $0.isNumber }.count
        let word = String(string.dropLast(digits))
        let suffix = string.suffix(digits)
        if word.isEmpty || uncountables.contains(Self.lastWord(of: word).lowercased()) {
            return string
        }
        for rule in rules.reversed() {
            if let result = rule.apply(word) { return result + suffix }
        }
        return string
    }

    /// The last word of `postalAddress` (`Address`), of `player_team` (`team`).
    private static func lastWord(of string: String) -> Substring {
        var start = string.endIndex
        while start > string.startIndex {
            let previous = string.index(before: start)
            let character = string[previous]
            if !character.isLetter { break }
            start = previous
            if character.isUppercase, start > string.startIndex, string[string.index(before: start)].isLowercase {
                break
            }
        }
        return string[start...]
    }

    private static func regex(_ pattern: String, _ options: NSRegularExpression.Options) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            fatalError("Inflections: invalid regular expression \(pattern): \(error)")
        }
    }
}

extension Inflections {
    /// The English rules of ``default``.
    static var english: Inflections {
        var inflections = Inflections()
        // General rules first: later rules win.
        for (pattern, template) in [
            ("$", "s"),
            ("s$", "s"),
            ("^(ax|test)is$", "$1es"),
            ("(octop|vir)us$", "$1i"),
            ("(octop|vir)i$", "$1i"),
            ("(alias|status|campus)$", "$1es"),
            ("(bu)s$", "$1ses"),
            ("(buffal|tomat|potat|her|ech|vet)o$", "$1oes"),
            ("([ti])um$", "$1a"),
            ("([ti])a$", "$1a"),
            ("sis$", "ses"),
            ("(?:([^f])fe|([lr])f)$", "$1$2ves"),
            ("(hive)$", "$1s"),
            ("([^aeiouy]|qu)y$", "$1ies"),
            ("(x|ch|ss|sh)$", "$1es"),
            ("(matr|vert|ind)(?:ix|ex)$", "$1ices"),
            ("^(m|l)ouse$", "$1ice"),
            ("^(m|l)ice$", "$1ice"),
            ("^(ox)$", "$1en"),
            ("^(oxen)$", "$1"),
            ("(quiz)$", "$1zes"),
        ] {
            inflections.plural(pattern, template)
        }
        for (pattern, template) in [
            ("s$", ""),
            ("(ss)$", "$1"),
            ("(n)ews$", "$1ews"),
            ("([ti])a$", "$1um"),
            ("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis"),
            ("(^analy)(sis|ses)$", "$1sis"),
            ("([^f])ves$", "$1fe"),
            ("(hive)s$", "$1"),
            ("(tive)s$", "$1"),
            ("([lr])ves$", "$1f"),
            ("([^aeiouy]|qu)ies$", "$1y"),
            ("(s)eries$", "$1eries"),
            ("(m)ovies$", "$1ovie"),
            ("(x|ch|ss|sh)es$", "$1"),
            ("^(m|l)ice$", "$1ouse"),
            ("(bus|campus)(es)?$", "$1"),
            ("(o)es$", "$1"),
            ("(shoe)s$", "$1"),
            ("(cris|test)(is|es)$", "$1is"),
            ("^(a)x[ie]s$", "$1xis"),
            ("(octop|vir)(us|i)$", "$1us"),
            ("(alias|status)(es)?$", "$1"),
            ("^(ox)en", "$1"),
            ("(vert|ind)ices$", "$1ex"),
            ("(matr)ices$", "$1ix"),
            ("(quiz)zes$", "$1"),
            ("(database)s$", "$1"),
        ] {
            inflections.singular(pattern, template)
        }
        for (singular, plural) in [
            ("person", "people"), ("man", "men"), ("child", "children"), ("sex", "sexes"), ("move", "moves"),
            ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"), ("zombie", "zombies"),
        ] {
            inflections.irregularSuffix(singular, plural)
        }
        inflections.uncountableWords([
            "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans",
            "police", "deer", "news", "data", "metadata",
        ])
        return inflections
    }
}
