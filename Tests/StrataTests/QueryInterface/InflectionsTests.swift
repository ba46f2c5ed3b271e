import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite struct InflectionsTests {
    @Test(arguments: [
        ("player", "players"), ("book", "books"), ("category", "categories"), ("person", "people"),
        ("child", "children"), ("address", "addresses"), ("postalAddress", "postalAddresses"),
        ("box", "boxes"), ("church", "churches"), ("wish", "wishes"), ("mouse", "mice"), ("ox", "oxen"),
        ("quiz", "quizzes"), ("wife", "wives"), ("wolf", "wolves"), ("analysis", "analyses"),
        ("matrix", "matrices"), ("vertex", "vertices"), ("status", "statuses"), ("bus", "buses"),
        ("potato", "potatoes"), ("data", "data"), ("day", "days"), ("information", "information"),
        ("sheep", "sheep"), ("userInformation", "userInformation"), ("woman", "women"),
        ("salesperson", "salespeople"), ("Person", "People"), ("team_member", "team_members"), ("", ""),
    ])
    func pluralizeAndSingularize(singular: String, plural: String) {
        #expect(Inflections.default.pluralize(singular) == plural)
        #expect(Inflections.default.singularize(plural) == singular)
    }

    @Test func pluralsAndSingularsAreStable() {
        #expect(Inflections.default.pluralize("people") == "people")
        #expect(Inflections.default.pluralize("books") == "books")
        #expect(Inflections.default.singularize("book") == "book")
        #expect(Inflections.default.singularize("person") == "person")
    }

    @Test func emptyInflectionsChangeNothing() {
        let inflections = Inflections()
        #expect(inflections.pluralize("book") == "book")
        #expect(inflections.singularize("books") == "books")
    }

    @Test func customRules() {
        var inflections = Inflections()
        inflections.plural("$", "s")
        inflections.singular("s$", "")
        #expect(inflections.pluralize("cactus") == "cactuss")
        inflections.plural("(cact)us$", "$1i")
        inflections.singular("(cact)i$", "$1us")
        #expect(inflections.pluralize("cactus") == "cacti")
        #expect(inflections.singularize("cacti") == "cactus")
        #expect(inflections.pluralize("Cactus") == "Cacti")
        inflections.plural("Zz$", options: [], "ZZZ")
        #expect(inflections.pluralize("buzz") == "buzzs")
        #expect(inflections.pluralize("buZz") == "buZZZ")
    }

    @Test func irregularSuffixes() {
        var inflections = Inflections.default
        #expect(inflections.pluralize("foo") == "foos")
        inflections.irregularSuffix("foo", "fee")
        #expect(inflections.pluralize("foo") == "fee")
        #expect(inflections.pluralize("superfoo") == "superfee")
        #expect(inflections.pluralize("Foo") == "Fee")
        #expect(inflections.singularize("fee") == "foo")
        inflections.irregularSuffix("cow", "kine")
        #expect(inflections.pluralize("cow") == "kine")
        #expect(inflections.singularize("kine") == "cow")
        // The default inflections are unchanged.
        #expect(Inflections.default.pluralize("foo") == "foos")
    }

    @Test func uncountableWords() {
        var inflections = Inflections.default
        inflections.uncountableWords(["Gravel"])
        #expect(inflections.pluralize("gravel") == "gravel")
        #expect(inflections.pluralize("roadGravel") == "roadGravel")
        #expect(inflections.singularize("gravel") == "gravel")
    }
}
