/// English inflections for association keys: a to-many association on the
/// `book` table is keyed `books`, and its count aggregate `bookCount`.
enum Inflections {
    private static let uncountables: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "deer", "news",
        "police", "data", "metadata",
    ]

    /// Irregular (singular, plural) pairs.
    private static let irregulars: [(String, String)] = [
        ("person", "people"), ("man", "men"), ("woman", "women"), ("child", "children"), ("mouse", "mice"),
        ("goose", "geese"), ("foot", "feet"), ("tooth", "teeth"), ("ox", "oxen"), ("leaf", "leaves"),
        ("life", "lives"), ("wife", "wives"), ("knife", "knives"), ("wolf", "wolves"), ("half", "halves"),
        ("shelf", "shelves"), ("thief", "thieves"), ("index", "indices"), ("matrix", "matrices"),
        ("vertex", "vertices"), ("criterion", "criteria"), ("analysis", "analyses"), ("crisis", "crises"),
        ("axis", "axes"), ("status", "statuses"), ("bus", "buses"), ("quiz", "quizzes"),
    ]

    /// The plural of the last word of `name`: `book` → `books`,
    /// `category` → `categories`, `person` → `people`, `postalAddress` → `postalAddresses`.
    static func pluralize(_ name: String) -> String {
        let (head, word) = splitLastWord(name)
        let lower = word.lowercased()
        if lower.isEmpty || uncountables.contains(lower) { return name }
        for (singular, plural) in irregulars {
            if lower == singular || lower == plural { return head + matchCase(word, plural) }
        }
        if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch")
            || lower.hasSuffix("sh")
        {
            return name + "es"
        }
        if lower.hasSuffix("y"), lower.count > 1, !isVowel(lower.dropLast().last!) {
            return String(name.dropLast()) + "ies"
        }
        return name + "s"
    }

    /// The singular of the last word of `name`: `books` → `book`,
    /// `categories` → `category`, `people` → `person`.
    static func singularize(_ name: String) -> String {
        let (head, word) = splitLastWord(name)
        let lower = word.lowercased()
        if lower.isEmpty || uncountables.contains(lower) { return name }
        for (singular, plural) in irregulars {
            if lower == plural || lower == singular { return head + matchCase(word, singular) }
        }
        if lower.hasSuffix("ies"), lower.count > 3 { return String(name.dropLast(3)) + "y" }
        for suffix in ["sses", "shes", "ches", "xes", "zes"] where lower.hasSuffix(suffix) {
            return String(name.dropLast(2))
        }
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") { return name }
        if lower.hasSuffix("s") { return String(name.dropLast()) }
        return name
    }

    /// Splits `postalAddress` into `postal` and `Address`, `player_team` into `player_` and `team`.
    private static func splitLastWord(_ name: String) -> (String, String) {
        let characters = Array(name)
        var index = characters.count
        while index > 0 {
            let character = characters[index - 1]
            if character == "_" || character == " " { break }
            index -= 1
            if character.isUppercase, index > 0, characters[index - 1].isLowercase { break }
        }
        return (String(characters[..<index]), String(characters[index...]))
    }

    private static func matchCase(_ word: String, _ replacement: String) -> String {
        guard let first = word.first, first.isUppercase else { return replacement }
        return replacement.prefix(1).uppercased() + replacement.dropFirst()
    }

    private static func isVowel(_ character: Character) -> Bool {
        "aeiou".contains(character)
    }
}
