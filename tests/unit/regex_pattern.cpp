// SPDX-License-Identifier: BSL-1.0
#include <agentry/regex/pattern.hpp>

#include <agentry/json/value.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace std::string_view_literals;
using regex = agentry::regex::pattern;

namespace {

struct search_case {
    std::string_view pattern;
    std::string_view text;
    bool expected;
};

void check_searches(std::initializer_list<search_case> cases) {
    for (const search_case& c : cases) {
        std::string error;
        const std::optional<regex> re = regex::compile(c.pattern, &error);
        INFO("pattern /", std::string(c.pattern), "/ on \"", std::string(c.text), "\" ", error);
        REQUIRE(re.has_value());
        CHECK(re->search(c.text) == c.expected);
    }
}

std::string compile_error(std::string_view pattern) {
    std::string error;
    const std::optional<regex> re = regex::compile(pattern, &error);
    INFO("pattern /", std::string(pattern), "/");
    CHECK_FALSE(re.has_value());
    CHECK_FALSE(error.empty());
    return error;
}

// The pattern of a schema that is exactly {"pattern": P} or {"type": "string", "pattern": P}
// ("$schema" aside, which every group of the suite carries).
std::optional<std::string> pattern_only(const agentry::json::value& schema) {
    if (!schema.is_object()) return std::nullopt;
    std::optional<std::string> pattern;
    for (const agentry::json::member& m : schema.members()) {
        if (m.key == "$schema") continue;
        if (m.key == "pattern" && m.value.is_string()) {
            pattern = m.value.as_string();
        } else if (!(m.key == "type" && m.value.as_string() == "string")) {
            return std::nullopt;
        }
    }
    return pattern;
}

} // namespace

TEST_CASE("regex: malformed patterns are compile errors with an offset") {
    CHECK(compile_error("(a") == "missing ')' at offset 0");
    CHECK(compile_error("a(b(c)") == "missing ')' at offset 1");
    CHECK(compile_error("a)") == "unmatched ')' at offset 1");
    CHECK(compile_error(")") == "unmatched ')' at offset 0");
    CHECK(compile_error("[a") == "missing ']' at offset 0");
    CHECK(compile_error("x[") == "missing ']' at offset 1");
    CHECK(compile_error("]") == "lone ']' at offset 0");
    CHECK(compile_error("a}") == "lone quantifier bracket at offset 1");
    CHECK(compile_error("a\\") == "\\ at end of pattern at offset 1");
    CHECK(compile_error("[a\\") == "\\ at end of pattern at offset 2");
    CHECK(compile_error("*a") == "nothing to repeat at offset 0");
    CHECK(compile_error("a**") == "nothing to repeat at offset 2");
    CHECK(compile_error("a|+") == "nothing to repeat at offset 2");
    CHECK(compile_error("(?:)?+") == "nothing to repeat at offset 5");
    CHECK(compile_error("{2}") == "nothing to repeat at offset 0");
    CHECK(compile_error("^*") == "nothing to repeat at offset 1");
    CHECK(compile_error("\\b+") == "nothing to repeat at offset 2");
    CHECK(compile_error("(?=a)*") == "nothing to repeat at offset 5");   // u-mode: lookaheads are not quantifiable
    CHECK(compile_error("(?<=a){2}") == "nothing to repeat at offset 6");
    CHECK(compile_error("a{3,1}") == "numbers out of order in {} quantifier at offset 1");
    // Bounds compare exactly, as ECMA-262 says (V8 clamps both and accepts this one).
    CHECK(compile_error("a{99999999999999999999,9999999999999999999}") ==
          "numbers out of order in {} quantifier at offset 1");
    CHECK(compile_error("a{") == "incomplete quantifier at offset 1");
    CHECK(compile_error("a{1") == "incomplete quantifier at offset 1");
    CHECK(compile_error("a{1,") == "incomplete quantifier at offset 1");
    CHECK(compile_error("a{,2}") == "incomplete quantifier at offset 1");
    CHECK(compile_error("a{x}") == "incomplete quantifier at offset 1");
    // u-mode allows identity escapes of syntax characters and '/' only.
    CHECK(compile_error("\\a") == "invalid escape at offset 0");
    CHECK(compile_error("x\\e") == "invalid escape at offset 1");
    CHECK(compile_error("\\-") == "invalid escape at offset 0");
    CHECK(compile_error("\\_") == "invalid escape at offset 0");
    CHECK(compile_error("\\c1") == "invalid escape at offset 0");
    CHECK(compile_error("\\x4") == "invalid escape at offset 0");
    CHECK(compile_error("\\00") == "invalid decimal escape at offset 0");
    CHECK(compile_error("\\u12") == "invalid Unicode escape at offset 0");
    CHECK(compile_error("\\u{110000}") == "invalid Unicode escape at offset 0");
    CHECK(compile_error("\\u{}") == "invalid Unicode escape at offset 0");
    CHECK(compile_error("\\1") == "invalid escape (no such group) at offset 0");
    CHECK(compile_error("(a)\\2") == "invalid escape (no such group) at offset 3");
    CHECK(compile_error("\\k<x>") == "invalid named reference at offset 0");
    CHECK(compile_error("(?<y>a)\\k<x>") == "invalid named reference at offset 7");
    CHECK(compile_error("\\k") == "invalid named reference at offset 0");
    CHECK(compile_error("(?<n>a)(?<n>b)") == "duplicate group name at offset 7");
    CHECK(compile_error("(?<1a>x)") == "invalid group name at offset 3");
    CHECK(compile_error("(?<>x)") == "invalid group name at offset 3");
    CHECK(compile_error("(?i:a)") == "invalid group at offset 0");  // modifiers are not supported
    CHECK(compile_error("(?") == "invalid group at offset 0");
    CHECK(compile_error("[z-a]") == "range out of order in character class at offset 1");
    CHECK(compile_error("[\\d-z]") == "invalid character class range at offset 1");
    CHECK(compile_error("[a-\\w]") == "invalid character class range at offset 1");
    CHECK(compile_error("[\\B]") == "invalid escape at offset 1");
    CHECK(compile_error("[\\1]") == "invalid class escape at offset 1");
    CHECK(compile_error("\\p{Nope}") == "unsupported or unknown Unicode property at offset 0");
    CHECK(compile_error("\\p{Alphabetic}") == "unsupported or unknown Unicode property at offset 0");
    CHECK(compile_error("\\p{Script=Greek}") == "unsupported Unicode property (scripts are not supported) at offset 0");
    CHECK(compile_error("\\p{gc=Nope}") == "invalid property name at offset 0");
    CHECK(compile_error("\\p{L") == "invalid property name at offset 0");
    CHECK(compile_error("\\pL") == "invalid property name at offset 0");
    CHECK(compile_error("a\xff") == "invalid UTF-8 at offset 1");
    CHECK(compile_error(std::string(129, '(') + std::string(129, ')')) == "groups nested too deeply at offset 128");
    CHECK_FALSE(regex::compile("(").has_value());  // the error pointer is optional
}

TEST_CASE("regex: well-formed patterns compile") {
    const std::string deepest = std::string(128, '(') + std::string(128, ')');
    for (const std::string_view p :
         {""sv, "a|"sv, "|"sv, "()"sv, "(?:)"sv, "[]"sv, "[^]"sv, "[-]"sv, "[a-]"sv, "[-a]"sv, "[\\-]"sv, "[[]"sv,
          "\\/"sv, "\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|"sv, "[\\b]"sv, "a{0}"sv, "a{2,}?"sv, "(?<name_1$>x)\\k<name_1$>"sv,
          "(?<\\u0061b>x)\\k<ab>"sv, "(?<é>x)"sv, "\\1(a)"sv, "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10"sv, "\\p{gc=Lu}"sv,
          "\\p{General_Category=Letter}"sv, "\\P{Any}"sv, "[\\p{L}\\d_-]"sv, "\\0"sv, "[\\0]"sv, "\\cZ"sv,
          "(?<=(?=a)(?!b))"sv, "x*?y+?z?\?w{1,2}?"sv, std::string_view(deepest)}) {
        std::string error;
        INFO("pattern /", std::string(p), "/");
        CHECK(regex::compile(p, &error).has_value());
        CHECK(error.empty());
    }
}

TEST_CASE("regex: a copy matches as the original, and outlives it") {
    std::optional<regex> original = regex::compile("^(a|ab)(c|bcd)(d*)$");  // not a simple sequence
    std::optional<regex> simple = regex::compile("^[a-z]{2,4}-[0-9]+$");   // a simple sequence
    REQUIRE(original.has_value());
    REQUIRE(simple.has_value());
    const regex copy = *original;
    regex simple_copy = *simple;
    simple_copy = *original;
    original.reset();
    CHECK(copy.search("abcd"));
    CHECK_FALSE(copy.search("abce"));
    CHECK(simple_copy.search("acd"));
    CHECK(simple->search("ab-12"));
    CHECK_FALSE(simple->search("ab-"));
}

TEST_CASE("regex: search is unanchored unless ^ or $ anchor it") {
    check_searches({
        {"a+", "xxaayy", true},
        {"a+", "xyz", false},
        {"", "", true},
        {"", "abc", true},
        {"^a*$", "aaa", true},
        {"^a*$", "abc", false},
        {"^a*$", "", true},
        {"^abc$", "abc", true},
        {"^abc$", "abc\n", false},  // $ is the end of the text only
        {"^abc$", "\nabc", false},
        {"^b", "ab", false},
        {"a$", "ab", false},
        {"b$", "ab", true},
        {"a|^b", "cb", false},
        {"x|^b", "bc", true},
        {"(?:^a|b)c", "xbc", true},
        {"(?:^a|b)c", "xac", false},
        {"$^", "", true},
        {"a^", "a", false},
    });
}

TEST_CASE("regex: the text is read as code points") {
    check_searches({
        {"^.$", "é", true},                 // 2 bytes
        {"^.$", "€", true},                 // 3 bytes
        {"^.$", "😀", true},                // 4 bytes
        {"^..$", "😀", false},
        {"^.{3}$", "a😀é", true},
        {"^[😀]$", "😀", true},
        {"^[😀]$", "\xF0\x9F\x98", false},
        {"^[^😀]$", "😀", false},
        {"^[^a]$", "😀", true},
        {"^[😀-😂]+$", "😁😂😀", true},
        {"^[😀-😂]+$", "😃", false},
        {"^\\u{1F600}$", "😀", true},
        {"^\\uD83D\\uDE00$", "😀", true},      // a surrogate pair is one code point
        {"^[\\uD83D\\uDE00-\\uD83D\\uDE4F]$", "🙏", true},
        {"^\\uD83D$", "😀", false},
        {"^\\u00e9$", "é", true},
        {"^\\xE9$", "é", true},
        {"^é+$", "ééé", true},
        {"^\\w$", "é", false},
        {"^\\W$", "é", true},
        {".", "\n", false},
        {".", "\r", false},
        {".", "\xE2\x80\xA8", false},   // U+2028
        {".", "\xE2\x80\xA9", false},   // U+2029
        {".", "\xE2\x80\xAA", true},    // U+202A
        {"^.$", "\t", true},
        {"^[^]$", "\n", true},
    });
}

TEST_CASE("regex: character classes") {
    check_searches({
        {"^[a-z]+$", "hello", true},
        {"^[a-z]+$", "Hello", false},
        {"^[^a-z]+$", "HELLO 1", true},
        {"^[^a-z]+$", "HELLO a", false},
        {"[]", "anything", false},
        {"^[]*$", "", true},
        {"^[-a]+$", "-a-", true},
        {"^[a-]+$", "-a-", true},
        {"^[\\d-]+$", "12-3", true},
        {"^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$", "ada.l-ove@exa-mple.org", true},
        {"^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$", "ada@example", false},
        {"^[\\b]$", "\b", true},
        {"^[\\-\\]\\\\]+$", "-]\\", true},
        {"^[[]$", "[", true},
        {"^[.]$", "a", false},
        {"^[\\s]$", "\xC2\xA0", true},   // U+00A0
        {"^[\\S]$", "\xC2\xA0", false},
        {"^[^\\d\\s]+$", "ab", true},
        {"^[^\\d\\s]+$", "a b", false},
        {"^[\\D]$", "x", true},
        {"^[\\W\\d]+$", "1 2", true},
        {"^[\\x41-\\x43]+$", "ABC", true},
        {"^[\\u0041-\\u{43}]+$", "ABCD", false},
        {"^[\\0]$", "\0"sv, true},
        {"^[\\cJ]$", "\n", true},
        {"^[--/]+$", "-./", true},
    });
}

TEST_CASE("regex: \\d \\w \\s use the ECMAScript definitions") {
    check_searches({
        {"^\\d+$", "0123456789", true},
        {"^\\d$", "\xD9\xA3", false},  // U+0663 ARABIC-INDIC DIGIT THREE
        {"^\\D$", "\xD9\xA3", true},
        {"^\\w+$", "A_z9", true},
        {"^\\w$", "-", false},
        {"^\\s+$", " \t\n\v\f\r", true},
        {"^\\s$", "\xE2\x80\x83", true},  // U+2003 EM SPACE
        {"^\\s$", "\xE3\x80\x80", true},  // U+3000
        {"^\\s$", "\xEF\xBB\xBF", true},  // U+FEFF
        {"^\\s$", "\xE2\x80\xA9", true},  // U+2029
        {"^\\s$", "\xE2\x80\x8B", false}, // U+200B is not a space
        {"^\\S$", "\xE2\x80\x93", true},  // U+2013
    });
}

TEST_CASE("regex: escapes") {
    check_searches({
        {"^\\t\\n\\v\\f\\r$", "\t\n\v\f\r", true},
        {"^\\0$", "\0"sv, true},
        {"^\\cJ\\cj$", "\n\n", true},
        {"^\\x41\\u0042\\u{43}\\u{0000044}$", "ABCD", true},
        {"^\\/\\.\\*$", "/.*", true},
        {"^\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|$", "^$\\.*+?()[]{}|", true},
        {"^\\t$", "\\t", false},
    });
}

TEST_CASE("regex: quantifiers, greedy and lazy") {
    check_searches({
        {"^a{3}$", "aaa", true},
        {"^a{3}$", "aa", false},
        {"^a{3}$", "aaaa", false},
        {"^a{2,}$", "aaaa", true},
        {"^a{2,}$", "a", false},
        {"^a{2,3}$", "aaa", true},
        {"^a{2,3}$", "aaaa", false},
        {"^a{0}$", "", true},
        {"^(?:ab){2}c?$", "ababc", true},
        {"^(?:ab){2}c?$", "abc", false},
        {"^a?b+c*$", "bbb", true},
        {"^a*?b$", "aab", true},
        {"^a+?$", "aaa", true},
        {"^a{2,}?$", "aaaa", true},
        {"^(?:a|ab)(?:c|bcd)(?:d*)$", "abcd", true},
        {"^(?:a*)*$", "aaa", true},         // an empty iteration ends the loop
        {"^(?:a*)+b$", "aab", true},
        {"^(?:a?){3,5}$", "a", true},
        {"^(?:|a){5}b$", "aab", true},
        {"^(a{1,2}){2}$", "aaa", true},
        {"^x{1000000000}$", "xx", false},
        // Lookaheads are atomic, so the laziness of a capture inside one shows.
        {"^(?=(a+?))\\1b", "aab", false},
        {"^(?=(a+))\\1b", "aab", true},
        {"^(?=(a*?))\\1$", "aa", false},
        {"^(?=(a?\?))\\1a$", "aa", false},
        {"^(?=(a?))\\1a$", "aa", true},
    });
}

TEST_CASE("regex: alternation and groups") {
    check_searches({
        {"^(?:cat|dog)s?$", "dogs", true},
        {"^(?:cat|dog)s?$", "cow", false},
        {"^(a|ab)(c|bcd)(d*)$", "abcd", true},
        {"^(?<year>\\d{4})-(?<month>\\d{2})$", "2024-06", true},
        {"^(?<year>\\d{4})-(?<month>\\d{2})$", "2024-6", false},
        {"^(|a)b$", "b", true},
        {"^a|b|c$", "xxc", true},
    });
}

TEST_CASE("regex: lookahead and lookbehind") {
    check_searches({
        {"q(?=u)", "queen", true},
        {"q(?=u)", "qatar", false},
        {"q(?!u)", "queen", false},
        {"q(?!u)", "qatar", true},
        {"^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,}$", "Passw0rdX", true},
        {"^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,}$", "password1", false},
        {"^(?!.*forbidden).*$", "all fine", true},
        {"^(?!.*forbidden).*$", "this is forbidden", false},
        {"(?<=\\$)\\d+", "costs $42", true},
        {"(?<=\\$)\\d+", "costs 42", false},
        {"(?<!\\$)\\b\\d+", "$42", false},
        {"(?<!\\$)\\b\\d+", "$42 or 17", true},
        {"(?<=^a+)b", "aaab", true},
        {"(?<=^a+)b", "acab", false},
        {"(?<=é)x", "éx", true},
        {"(?<=😀)x", "😀x", true},
        {"(?<=^.)x", "😀x", true},   // one code point back
        {"(?<=^..)x", "😀x", false},
        {"(?<=(?<!b)a)c", "bac", false},
        {"(?<=(?<!b)a)c", "aac", true},
        {"^(?!(a)b)a\\1c$", "ac", true},   // captures of a failed negative lookahead are unset
        {"^(?!(a)b)a\\1c$", "aac", false},
        {"^(?=(a))\\1$", "a", true},      // captures of a positive lookahead persist
        {"(?<=(\\d)\\1)x", "11x", true},  // read right to left: (\d) before \1
        {"(?<=\\1(\\d))x", "11x", true},
        {"(?<=\\1(\\d))x", "12x", false},
        {"(?=a)", "", false},
        {"(?!a)", "", true},
    });
}

TEST_CASE("regex: backreferences") {
    check_searches({
        {"^(a|b)\\1$", "aa", true},
        {"^(a|b)\\1$", "ab", false},
        {"^(['\"]).*\\1$", "'quoted'", true},
        {"^(['\"]).*\\1$", "'mixed\"", false},
        {"^(?<q>['\"]).*\\k<q>$", "\"quoted\"", true},
        {"^(?<q>['\"]).*\\k<q>$", "\"mixed'", false},
        {"^\\1(a)$", "a", true},          // a group not yet matched matches empty
        {"^(a)|\\1b$", "b", true},
        {"^(?:(a)|b\\1)+$", "ab", true},  // each iteration unsets the groups inside
        {"^(?:(a)|b\\1)+$", "aba", true},
        {"^(a)?\\1b$", "b", true},
        {"^(\\w+) \\1$", "hello hello", true},
        {"^(\\w+) \\1$", "hello world", false},
        {"^(😀)\\1$", "😀😀", true},
        {"^(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10$", "abcdefghijj", true},
        {"^(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10$", "abcdefghija0", false},
    });
}

TEST_CASE("regex: word boundaries") {
    check_searches({
        {"\\bfoo\\b", "a foo b", true},
        {"\\bfoo\\b", "afoo b", false},
        {"\\bfoo\\b", "foo", true},
        {"\\Bfoo", "afoo", true},
        {"\\Bfoo", "a foo", false},
        {"\\b", "", false},
        {"\\B", "", true},
        {"\\b", "é", false},   // \w is ASCII
        {"^\\B.\\B$", "é", true},
        {"a\\b", "aé", true},
    });
}

TEST_CASE("regex: Unicode property escapes") {
    check_searches({
        {"^\\p{L}+$", "Héllo", true},
        {"^\\p{L}+$", "π", true},
        {"^\\p{L}+$", "123", false},
        {"^\\p{Letter}+$", "日本語", true},
        {"^\\p{Lu}\\p{Ll}+$", "Élan", true},
        {"^\\p{Lu}\\p{Ll}+$", "élan", false},
        {"^\\p{Uppercase_Letter}$", "Σ", true},
        {"^\\p{Ll}$", "σ", true},
        {"^\\p{N}+$", "12½", true},
        {"^\\p{Nd}+$", "12½", false},
        {"^\\p{Nd}+$", "\xD9\xA3\xD9\xA4", true},   // Arabic-Indic digits
        {"^\\p{digit}+$", "42", true},
        {"^\\P{L}+$", "123 !", true},
        {"^\\P{L}+$", "12a", false},
        {"^[\\p{L}\\p{Nd}_]+$", "naïve_42", true},
        {"^[^\\p{L}]+$", "12", true},
        {"^\\p{gc=Zs}$", " ", true},
        {"^\\p{General_Category=Sc}$", "€", true},
        {"^\\p{So}$", "😀", true},
        {"^\\p{ASCII}+$", "abc", true},
        {"^\\p{ASCII}+$", "abç", false},
        {"^\\p{Any}$", "\n", true},
        {"^\\p{Assigned}$", "\xCD\xB8", false},  // U+0378 is unassigned
        {"\\p{Lu}", "abc", false},
    });
}

TEST_CASE("regex: catastrophic backtracking stops at the step budget") {
    const std::string text = std::string(36, 'a') + "!";
    for (const std::string_view p : {"^(a+)+$"sv, "^(a|a)*$"sv, "^(a|aa)+$"sv, "(x+x+)+y"sv, "^(\\w+\\s?)*$"sv, "((a*)*)*b"sv}) {
        INFO("pattern /", std::string(p), "/");
        const std::optional<regex> re = regex::compile(p);
        REQUIRE(re.has_value());
        const regex::match_result r = re->search_bounded(text);
        CHECK(r != regex::match_result::match);
        CHECK_FALSE(re->search(text));
    }
    const std::optional<regex> re = regex::compile("^(a+)+$");
    REQUIRE(re.has_value());
    CHECK(re->search_bounded(text) == regex::match_result::too_complex);
    CHECK(re->search_bounded("aaaa!") == regex::match_result::no_match);
    CHECK(re->search_bounded("aaaa") == regex::match_result::match);
    CHECK(re->search_bounded(std::string(100, 'a'), 10) == regex::match_result::too_complex);
    CHECK(re->search_bounded(std::string(100, 'a'), 100'000) == regex::match_result::match);
}

TEST_CASE("regex: long texts need no recursion") {
    const std::string long_text(200'000, 'a');
    const std::optional<regex> star = regex::compile("^(?:a|b)*$");
    REQUIRE(star.has_value());
    CHECK(star->search_bounded(long_text, 10'000'000) == regex::match_result::match);
    const std::optional<regex> literal = regex::compile("b");
    REQUIRE(literal.has_value());
    CHECK(literal->search_bounded(long_text + "b", 1000) == regex::match_result::match);  // skipped starts are free
    CHECK(literal->search_bounded(long_text, 1000) == regex::match_result::no_match);
}

TEST_CASE("regex: invalid UTF-8 in the text reads as U+FFFD and never crashes") {
    check_searches({
        {"^.$", "\xFF", true},
        {"^..$", "\xC3", false},
        {"^.{3}$", "\xF0\x9F\x98", true},    // a cut sequence: three bytes, three code points
        {"^\\uFFFD$", "\x80", true},
        {"(?<=.)x", "\xE2\x82x", true},
        {"a", "\xC3\xA9\xFF" "a", true},
    });
}

TEST_CASE("regex: JSON-Schema-Test-Suite pattern cases agree") {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::path(__FILE__).parent_path() / "../../../shared/testdata/json-schema-test-suite/draft2020-12";
    if (!fs::is_directory(dir)) {
        MESSAGE("skipped: JSON-Schema-Test-Suite not found at " << dir.string());
        return;
    }
    int files = 0;
    int checked = 0;
    int agreed = 0;
    for (const fs::path& file : {dir / "pattern.json", dir / "optional" / "ecmascript-regex.json"}) {
        if (!fs::is_regular_file(file)) {
            MESSAGE("not present, not checked: " << file.string());
            continue;
        }
        ++files;
        std::ifstream in(file, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const agentry::json::parsed groups = agentry::json::parse(text);
        INFO("file ", file.string());
        REQUIRE(groups.ok());
        REQUIRE(groups.value.is_array());
        for (const agentry::json::value& group : groups.value.items()) {
            const agentry::json::value* schema = group.find("schema");
            const agentry::json::value* tests = group.find("tests");
            if (schema == nullptr || tests == nullptr) continue;
            const std::optional<std::string> pattern = pattern_only(*schema);
            if (!pattern) continue;
            std::string error;
            const std::optional<regex> re = regex::compile(*pattern, &error);
            const agentry::json::value* description = group.find("description");
            INFO("group \"", description ? description->as_string() : std::string(), "\" pattern /", *pattern, "/ ",
                 error);
            CHECK(re.has_value());
            if (!re) continue;
            for (const agentry::json::value& test : tests->items()) {
                const agentry::json::value* data = test.find("data");
                const agentry::json::value* valid = test.find("valid");
                if (data == nullptr || valid == nullptr || !data->is_string()) continue;
                const bool expected = valid->as_bool();
                const bool actual = re->search(data->as_string());
                ++checked;
                agreed += actual == expected;
                INFO("data \"", data->as_string(), "\"");
                CHECK(actual == expected);
            }
        }
    }
    MESSAGE("JSON-Schema-Test-Suite: " << agreed << " of " << checked << " string cases agree, from " << files
                                       << " file(s)");
    CHECK(checked > 0);
}
