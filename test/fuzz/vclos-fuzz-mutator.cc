/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vclos-fuzz-mutator.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace
{

/// Numbers and near-numbers that readers get wrong: limits of 32 and 64 bits, signs,
/// exponents, fractions, non-finite values, hex, text.
const char* const NUMBERS[] = {"-1",
                               "0",
                               "-0",
                               "2.5",
                               "1e1",
                               "1e18",
                               "1e300",
                               "-1e300",
                               "1e-320",
                               "1.8e19",
                               "4294967295",
                               "4294967296",
                               "4294967297",
                               "9223372036854775807",
                               "9223372036854775808",
                               "18446744073709551615",
                               "18446744073709551616",
                               "99999999999999999999999999999999",
                               "nan",
                               "inf",
                               "-inf",
                               "0x10",
                               "abc",
                               ""};

/// Syntax of JSON and CSV, and text the readers look for.
const std::string TOKENS[] = {"\"",
                              ",",
                              ":",
                              "{",
                              "}",
                              "[",
                              "]",
                              "\n",
                              "\r\n",
                              "#",
                              "//",
                              "/*",
                              " ",
                              "\\",
                              "true",
                              "null",
                              "\"\"",
                              ",,",
                              "\xff",
                              std::string("\0", 1),
                              "COMPLETED",
                              "2020-02-30 25:61:61",
                              "-2000000000-01-01 00:00:00",
                              "1970-01-01 00:00:00"};

/// Characters a single byte is set to, besides random ones.
const char SYNTAX[] = "\",:{}[]\n#-+.e0123456789 \\\t\r";

} // namespace

VclosFuzzMutator::VclosFuzzMutator(std::vector<std::string> corpus,
                                   uint64_t seed,
                                   std::size_t maxLength)
    : m_corpus(std::move(corpus)),
      m_rng(seed),
      m_maxLength(maxLength)
{
    if (m_corpus.empty())
    {
        m_corpus.emplace_back();
    }
    // Words of the corpus: quoted strings (JSON keys and values) and the first line's
    // comma-separated fields (CSV headers). Sorted, so the order is the corpus's, not memory's.
    std::set<std::string> words;
    for (const std::string& s : m_corpus)
    {
        for (std::size_t open = s.find('"'); open != std::string::npos;)
        {
            std::size_t close = s.find('"', open + 1);
            if (close == std::string::npos)
            {
                break;
            }
            if (close - open <= 64)
            {
                words.insert(s.substr(open, close - open + 1));
            }
            open = s.find('"', close + 1);
        }
        std::string header = s.substr(0, s.find('\n'));
        for (std::size_t begin = 0; begin <= header.size();)
        {
            std::size_t end = std::min(header.find(',', begin), header.size());
            if (end > begin && end - begin <= 64)
            {
                words.insert(header.substr(begin, end - begin));
            }
            begin = end + 1;
        }
    }
    m_words.assign(words.begin(), words.end());
    m_words.insert(m_words.end(), std::begin(TOKENS), std::end(TOKENS));
}

std::size_t
VclosFuzzMutator::Below(std::size_t n)
{
    return n == 0 ? 0 : static_cast<std::size_t>(m_rng() % n);
}

std::string
VclosFuzzMutator::Next()
{
    std::string s = m_corpus[Below(m_corpus.size())];
    std::size_t count = 1 + Below(4);
    for (std::size_t i = 0; i < count; ++i)
    {
        Mutate(s);
        if (s.size() > m_maxLength)
        {
            s.resize(m_maxLength);
        }
    }
    return s;
}

void
VclosFuzzMutator::Mutate(std::string& s)
{
    std::size_t at = Below(s.size() + 1);
    switch (Below(11))
    {
    case 0: // flip a bit
        if (!s.empty())
        {
            s[Below(s.size())] ^= static_cast<char>(1u << Below(8));
        }
        break;
    case 1: // set a byte
        if (!s.empty())
        {
            s[Below(s.size())] =
                Below(2) == 0 ? static_cast<char>(Below(256)) : SYNTAX[Below(sizeof(SYNTAX) - 1)];
        }
        break;
    case 2: // truncate
        s.resize(at);
        break;
    case 3: // erase a range
        s.erase(at, 1 + Below(std::min<std::size_t>(s.size() - at + 1, 64)));
        break;
    case 4: // duplicate a range
    {
        std::size_t from = Below(s.size() + 1);
        std::string range = s.substr(from, 1 + Below(256));
        s.insert(Below(s.size() + 1), range);
        break;
    }
    case 5: // splice: this entry's head, another entry's tail
    {
        const std::string& other = m_corpus[Below(m_corpus.size())];
        s = s.substr(0, at) + other.substr(Below(other.size() + 1));
        break;
    }
    case 6:
    case 7:
        GrowDigits(s);
        break;
    case 8:
        Nest(s);
        break;
    case 9: // insert a word
        s.insert(at, m_words[Below(m_words.size())]);
        break;
    default:
        MoveLine(s);
        break;
    }
}

void
VclosFuzzMutator::GrowDigits(std::string& s)
{
    // The digit run at or after a random place (or, if none, anywhere).
    std::size_t begin = s.find_first_of("0123456789", Below(s.size() + 1));
    if (begin == std::string::npos)
    {
        begin = s.find_first_of("0123456789");
    }
    if (begin == std::string::npos)
    {
        s.insert(Below(s.size() + 1), NUMBERS[Below(std::size(NUMBERS))]);
        return;
    }
    std::size_t end = begin;
    while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.'))
    {
        ++end;
    }
    if (Below(3) == 0) // repeat the run's digits: 12 -> 1212121212...
    {
        std::string run = s.substr(begin, end - begin);
        std::string grown;
        for (std::size_t n = 2 + Below(12); n > 0; --n)
        {
            grown += run;
        }
        s.replace(begin, end - begin, grown);
    }
    else
    {
        s.replace(begin, end - begin, NUMBERS[Below(std::size(NUMBERS))]);
    }
}

void
VclosFuzzMutator::Nest(std::string& s)
{
    static const char* const OPEN[] = {"[", "{\"a\":", "[{\"x\":"};
    static const char* const CLOSE[] = {"]", "}", "}]"};
    std::size_t kind = Below(std::size(OPEN));
    // Mostly shallow; sometimes deep enough to overflow a recursive reader's stack.
    std::size_t depth = Below(4) == 0 ? 1000 + Below(100000) : 1 + Below(64);
    std::string open;
    std::string close;
    for (std::size_t i = 0; i < depth; ++i)
    {
        open += OPEN[kind];
        close += CLOSE[kind];
    }
    std::size_t at = Below(s.size() + 1);
    std::size_t end = at + Below(s.size() - at + 1);
    s.insert(end, Below(2) == 0 ? close : "");
    s.insert(at, open);
}

void
VclosFuzzMutator::MoveLine(std::string& s)
{
    std::vector<std::string> lines;
    for (std::size_t begin = 0; begin < s.size();)
    {
        std::size_t end = s.find('\n', begin);
        end = end == std::string::npos ? s.size() : end + 1;
        lines.push_back(s.substr(begin, end - begin));
        begin = end;
    }
    if (lines.empty())
    {
        return;
    }
    std::size_t a = Below(lines.size());
    std::size_t b = Below(lines.size());
    if (Below(2) == 0)
    {
        std::string copy = lines[a];
        std::size_t copies = 1 + (Below(8) == 0 ? Below(1000) : 0);
        copies = std::min(copies, 1 + m_maxLength / (copy.size() + 1)); // stay near the cap
        for (std::size_t n = copies; n > 0; --n)
        {
            lines.insert(lines.begin() + b, copy);
        }
    }
    else
    {
        std::swap(lines[a], lines[b]);
    }
    s.clear();
    for (const std::string& line : lines)
    {
        s += line;
    }
}
