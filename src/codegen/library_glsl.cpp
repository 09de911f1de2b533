// library_glsl.hpp's translation: a token stream, rewritten by a few passes, printed back.
#include "codegen/library_glsl.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace switchyard::codegen {
namespace {

enum class T : std::uint8_t { Space, Ident, Number, Punct, Directive };

struct Token {
  T kind;
  std::string text;
};
using Tokens = std::vector<Token>;

// The translation only meets text this repository writes: a construct outside the subset is a
// bug here, not a user error.
[[noreturn]] void unsupported(const std::string& what) {
  throw std::logic_error("library kernels' GLSL translation: " + what);
}

Tokens tokenize(std::string_view s) {
  static constexpr std::string_view kLong[] = {
      "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
      "++",  "--",  "+=", "-=", "*=", "/=", "|=", "&=", "^=", "->"};
  Tokens out;
  bool line_start = true;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    std::size_t j = i + 1;
    T kind = T::Punct;
    if (std::isspace(static_cast<unsigned char>(c))) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      kind = T::Space;
    } else if (s.substr(i, 2) == "/*") {
      j = s.find("*/", i + 2);
      if (j == std::string_view::npos) unsupported("an unterminated comment");
      j += 2;
      kind = T::Space;
    } else if (s.substr(i, 2) == "//") {
      j = std::min(s.find('\n', i), s.size());
      kind = T::Space;
    } else if (c == '#' && line_start) {
      j = std::min(s.find('\n', i), s.size());
      kind = T::Directive;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      kind = T::Ident;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      kind = T::Number;
    } else {
      for (std::string_view op : kLong)
        if (s.substr(i, op.size()) == op) {
          j = i + op.size();
          break;
        }
    }
    const std::string_view text = s.substr(i, j - i);
    // A directive starts a line: after a line break, or at the start, with only blanks between.
    if (kind != T::Space)
      line_start = false;
    else if (text.find('\n') != std::string_view::npos)
      line_start = true;
    out.push_back({kind, std::string(text)});
    i = j;
  }
  return out;
}

std::string print(const Tokens& ts, std::size_t begin = 0, std::size_t end = std::string::npos) {
  std::string s;
  for (std::size_t i = begin; i < std::min(end, ts.size()); ++i) s += ts[i].text;
  return s;
}

bool is(const Token& t, std::string_view text) {
  return t.kind != T::Space && t.text == text;
}

// The next token at or after i that is not space (ts.size() if none).
std::size_t skip(const Tokens& ts, std::size_t i) {
  while (i < ts.size() && ts[i].kind == T::Space) ++i;
  return i;
}
std::size_t skip_back(const Tokens& ts, std::size_t i) {  // at or before i; npos if none
  while (i != std::string::npos && i < ts.size() && ts[i].kind == T::Space) --i;
  return i;
}

// The bracket closing the one that opens at `open`.
std::size_t closing(const Tokens& ts, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < ts.size(); ++i) {
    if (ts[i].kind != T::Punct) continue;
    const char c = ts[i].text[0];
    if (ts[i].text.size() != 1) continue;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && --depth == 0) return i;
  }
  unsupported("an unbalanced bracket after: " + print(ts, open, open + 12));
}
std::size_t opening(const Tokens& ts, std::size_t close) {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (ts[i].kind != T::Punct || ts[i].text.size() != 1) continue;
    const char c = ts[i].text[0];
    if (c == ')' || c == ']' || c == '}') ++depth;
    if ((c == '(' || c == '[' || c == '{') && --depth == 0) return i;
  }
  unsupported("an unbalanced bracket before: " + print(ts, close > 12 ? close - 12 : 0, close));
}

bool opens(const Token& t) {
  return t.kind == T::Punct && (t.text == "(" || t.text == "[" || t.text == "{");
}
bool closes(const Token& t) {
  return t.kind == T::Punct && (t.text == ")" || t.text == "]" || t.text == "}");
}

Tokens slice(const Tokens& ts, std::size_t begin, std::size_t end) {
  return Tokens(ts.begin() + static_cast<std::ptrdiff_t>(begin),
                ts.begin() + static_cast<std::ptrdiff_t>(end));
}

void append(Tokens& to, const Tokens& from) {
  to.insert(to.end(), from.begin(), from.end());
}
void append(Tokens& to, std::string_view text) {
  append(to, tokenize(text));
}

// Splits [begin, end) at commas outside brackets.
std::vector<std::pair<std::size_t, std::size_t>> split_commas(const Tokens& ts, std::size_t begin,
                                                              std::size_t end) {
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  std::size_t from = begin;
  for (std::size_t i = begin; i < end; ++i) {
    if (opens(ts[i])) {
      i = closing(ts, i);
    } else if (is(ts[i], ",")) {
      parts.emplace_back(from, i);
      from = i + 1;
    }
  }
  if (skip(ts, from) < end) parts.emplace_back(from, end);
  return parts;
}

// The last identifier in [begin, end): a declaration's name.
std::string last_ident(const Tokens& ts, std::size_t begin, std::size_t end) {
  for (std::size_t i = end; i-- > begin;)
    if (ts[i].kind == T::Ident) return ts[i].text;
  unsupported("a declaration without a name: " + print(ts, begin, end));
}

// Whether an expression already is a GLSL bool: a comparison or logical operator outside
// brackets, or one parenthesised such expression.
bool is_boolean(const Tokens& ts, std::size_t begin, std::size_t end) {
  begin = skip(ts, begin);
  const std::size_t last = skip_back(ts, end - 1);
  if (begin >= end || last == std::string::npos || last < begin) return false;
  if (is(ts[begin], "(") && closing(ts, begin) == last) return is_boolean(ts, begin + 1, last);
  if (is(ts[begin], "!")) return true;
  for (std::size_t i = begin; i < end; ++i) {
    if (opens(ts[i])) {
      i = closing(ts, i);
      continue;
    }
    if (ts[i].kind == T::Punct)
      for (std::string_view op : {"==", "!=", "<", ">", "<=", ">=", "&&", "||"})
        if (ts[i].text == op) return true;
  }
  return false;
}

// C tests numbers against zero where GLSL wants a bool, and C's comparisons are int where
// GLSL's are bool: conditions of `if` and `?:` that are numbers are compared with 0, and a
// parenthesised comparison next to + or - becomes int(...).
Tokens booleans(const Tokens& ts) {
  // Text to insert before token i: closers (ending a condition) before openers.
  std::multimap<std::size_t, std::pair<int, std::string>> before;
  auto wrap = [&](std::size_t begin, std::size_t end) {
    before.insert({begin, {1, "(("}});
    before.insert({end, {0, ") != 0)"}});
  };
  for (std::size_t i = 0; i < ts.size(); ++i) {
    if (is(ts[i], "if")) {
      const std::size_t open = skip(ts, i + 1), close = closing(ts, open);
      if (!is_boolean(ts, open + 1, close)) wrap(skip(ts, open + 1), close);
    } else if (is(ts[i], "?")) {
      std::size_t start = i;
      for (std::size_t j = i; j-- > 0;) {
        const Token& t = ts[j];
        if (t.kind == T::Space) continue;
        if (closes(t)) {
          j = opening(ts, j);
          start = j;
          continue;
        }
        if (opens(t) || t.kind == T::Directive || is(t, "return")) break;
        if (t.kind == T::Punct &&
            (t.text == "," || t.text == ";" || t.text == "?" || t.text == ":" ||
             (t.text.back() == '=' && t.text != "==" && t.text != "!=" && t.text != "<=" &&
              t.text != ">=")))
          break;
        start = j;
      }
      if (start == i) unsupported("a conditional without a condition");
      if (!is_boolean(ts, start, i)) wrap(start, skip_back(ts, i - 1) + 1);
    } else if (is(ts[i], "(")) {
      const std::size_t close = closing(ts, i);
      const std::size_t prev = skip_back(ts, i - 1), next = skip(ts, close + 1);
      auto arithmetic = [&](std::size_t k) {
        return k < ts.size() && (is(ts[k], "+") || is(ts[k], "-"));
      };
      // A call's or a cast's parentheses are preceded by a name or a closing bracket.
      if ((arithmetic(prev) || arithmetic(next)) && is_boolean(ts, i + 1, close))
        before.insert({i, {1, "int"}});
    }
  }
  Tokens out;
  for (std::size_t i = 0; i <= ts.size(); ++i) {
    auto [from, to] = before.equal_range(i);
    std::vector<std::pair<int, std::string>> here;
    for (auto it = from; it != to; ++it) here.push_back(it->second);
    std::stable_sort(here.begin(), here.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& h : here) append(out, h.second);
    if (i < ts.size()) out.push_back(ts[i]);
  }
  return out;
}

// GLSL reserves these names, which C uses freely (`length`: x.length reads as x.length()).
std::string glsl_name(const std::string& c_name) {
  static const std::set<std::string> kReserved = {
      "in",     "out",    "input",  "output",    "sample", "filter", "common",
      "active", "length", "buffer", "partition", "shared", "half"};
  return kReserved.count(c_name) ? "sy_" + c_name : c_name;
}

Tokens rename(const Tokens& ts, const std::map<std::string, std::string>& names) {
  Tokens out = ts;
  for (Token& t : out) {
    if (t.kind != T::Ident) continue;
    if (auto it = names.find(t.text); it != names.end()) t.text = it->second;
    t.text = glsl_name(t.text);
  }
  return out;
}

class Translator {
 public:
  explicit Translator(int local_size) : local_(local_size) {}

  std::string program(std::string_view head, std::string_view c_source) {
    const Tokens ts = tokenize(c_source);
    std::string body;
    std::size_t i = 0;
    while (i < ts.size()) {
      const Token& t = ts[i];
      if (t.kind == T::Space) {
        body += t.text;
        ++i;
      } else if (t.kind == T::Directive) {
        body += directive(t.text);
        ++i;
      } else if (is(t, "typedef")) {
        std::size_t end = i;
        while (end < ts.size() && !is(ts[end], ";")) ++end;
        const std::string name = last_ident(ts, i, end);
        std::size_t name_at = end;
        while (!is(ts[name_at], name)) --name_at;
        std::string type = print(ts, skip(ts, i + 1), name_at);
        while (!type.empty() && type.back() == ' ') type.pop_back();
        aliases_[name] = type;
        body += "#define " + name + " " + type;
        i = end + 1;
      } else if (is(t, "SY_HELPER")) {
        const std::size_t open = find_body(ts, i), close = closing(ts, open);
        body += helper(slice(ts, i, close + 1));
        i = close + 1;
      } else if (is(t, "SY_KERNEL")) {
        const std::size_t open = find_body(ts, i), close = closing(ts, open);
        body += kernel(slice(ts, i, close + 1));
        i = close + 1;
      } else {
        unsupported("unexpected text at top level: " + print(ts, i, i + 12));
      }
    }
    // Buffer reference types for the element types the entry points point at.
    std::string refs;
    for (const std::string& e : element_types_) {
      const std::string ref = "sy_ref_" + e, size = std::to_string(size_of(e));
      refs += "layout(buffer_reference, std430, buffer_reference_align = " + size + ") buffer " +
              ref + " { " + e + " v[]; };\n" + ref + " " + ref + "_at(" + ref +
              " p, int64_t i) { return " + ref + "(uint64_t(p) + uint64_t(i) * " + size +
              "ul); }\n";
    }
    return std::string(head) + refs + body;
  }

 private:
  struct SharedHelper {
    Tokens signature;  // return type and name, without SY_HELPER
    std::vector<Tokens> params;
    std::vector<bool> shared;
    std::vector<std::string> names;
    Tokens body;  // from { to }
  };
  using Binding = std::map<std::string, std::string>;   // shared parameter → array
  using Pointers = std::map<std::string, std::string>;  // global pointer → element type

  static std::size_t find_body(const Tokens& ts, std::size_t i) {
    while (i < ts.size() && !is(ts[i], "{")) ++i;
    if (i == ts.size()) unsupported("a function without a body");
    return i;
  }

  std::string concrete(std::string type) const {
    for (auto it = aliases_.find(type); it != aliases_.end(); it = aliases_.find(type))
      type = it->second;
    return type;
  }
  static std::size_t size_of(const std::string& glsl_type) {
    if (glsl_type == "uint8_t" || glsl_type == "int8_t") return 1;
    if (glsl_type == "int" || glsl_type == "uint" || glsl_type == "float") return 4;
    if (glsl_type == "int64_t" || glsl_type == "uint64_t" || glsl_type == "double") return 8;
    unsupported("a pointer to " + glsl_type);
  }
  bool is_type(const std::string& name) const {
    static const std::set<std::string> kTypes = {"int",      "uint",  "uint8_t", "int64_t",
                                                 "uint64_t", "float", "double"};
    return kTypes.count(name) || aliases_.count(name);
  }
  std::string reference(const std::string& element) {
    const std::string e = concrete(element);
    size_of(e);
    element_types_.insert(e);
    return "sy_ref_" + e;
  }

  std::string directive(const std::string& text) {
    return "#" + print(casts(tokenize(std::string_view(text).substr(1))));
  }

  // (T)x → T(x), for x a unary expression: prefix operators, a cast, or a name, number or
  // parenthesised expression followed by subscripts, calls and members.
  bool cast_at(const Tokens& ts, std::size_t i, std::size_t& type_at, std::size_t& close) const {
    if (!is(ts[i], "(")) return false;
    type_at = skip(ts, i + 1);
    if (type_at >= ts.size() || ts[type_at].kind != T::Ident || !is_type(ts[type_at].text))
      return false;
    close = skip(ts, type_at + 1);
    if (close >= ts.size() || !is(ts[close], ")")) return false;
    const std::size_t next = skip(ts, close + 1);
    return next < ts.size() &&
           (ts[next].kind == T::Ident || ts[next].kind == T::Number || is(ts[next], "(") ||
            is(ts[next], "~") || is(ts[next], "-") || is(ts[next], "!"));
  }
  std::size_t unary_end(const Tokens& ts, std::size_t i) const {
    i = skip(ts, i);
    if (is(ts[i], "~") || is(ts[i], "-") || is(ts[i], "!")) return unary_end(ts, i + 1);
    std::size_t type_at = 0, close = 0;
    if (cast_at(ts, i, type_at, close)) return unary_end(ts, close + 1);
    std::size_t end = is(ts[i], "(") ? closing(ts, i) + 1 : i + 1;
    for (;;) {
      const std::size_t next = skip(ts, end);
      if (next < ts.size() && (is(ts[next], "[") || is(ts[next], "("))) {
        end = closing(ts, next) + 1;
      } else if (next + 1 < ts.size() && is(ts[next], ".") && ts[next + 1].kind == T::Ident) {
        end = next + 2;
      } else {
        return end;
      }
    }
  }
  Tokens casts(const Tokens& ts) const {
    Tokens out;
    for (std::size_t i = 0; i < ts.size(); ++i) {
      std::size_t type_at = 0, close = 0;
      if (!cast_at(ts, i, type_at, close)) {
        out.push_back(ts[i]);
        continue;
      }
      const std::size_t begin = skip(ts, close + 1), end = unary_end(ts, begin);
      out.push_back(ts[type_at]);
      append(out, "(");
      append(out, casts(slice(ts, begin, end)));
      append(out, ")");
      i = end - 1;
    }
    return out;
  }

  // `[const] SY_GLOBAL T* name` → `sy_ref_<T> name`, remembering `name` as a pointer.
  Tokens pointer_declarations(const Tokens& ts, Pointers& pointers) {
    Tokens out;
    for (std::size_t i = 0; i < ts.size(); ++i) {
      const std::size_t at = is(ts[i], "const") ? skip(ts, i + 1) : i;
      if (at >= ts.size() || !is(ts[at], "SY_GLOBAL")) {
        out.push_back(ts[i]);
        continue;
      }
      const std::size_t type = skip(ts, at + 1), star = skip(ts, type + 1);
      const std::size_t name = skip(ts, star + 1);
      if (!is(ts[star], "*") || ts[name].kind != T::Ident)
        unsupported("a global pointer declaration: " + print(ts, i, name + 1));
      append(out, reference(ts[type].text) + " ");
      out.push_back(ts[name]);
      pointers[ts[name].text] = concrete(ts[type].text);
      i = name;
    }
    return out;
  }

  // p[i] → sy_at(p, i).v[0] and p + i → sy_at(p, i) for the pointers p.
  Tokens pointer_uses(const Tokens& ts, const Pointers& pointers) const {
    Tokens out;
    for (std::size_t i = 0; i < ts.size(); ++i) {
      if (ts[i].kind != T::Ident || !pointers.count(ts[i].text)) {
        out.push_back(ts[i]);
        continue;
      }
      const std::size_t next = skip(ts, i + 1);
      if (next < ts.size() && is(ts[next], "[")) {
        const std::size_t close = closing(ts, next);
        append(out, "sy_ref_" + pointers.at(ts[i].text) + "_at(" + ts[i].text + ", ");
        append(out, pointer_uses(slice(ts, next + 1, close), pointers));
        append(out, ").v[0]");
        i = close;
      } else if (next < ts.size() && is(ts[next], "+")) {
        std::size_t end = next + 1;
        while (end < ts.size() && !is(ts[end], ";") && !is(ts[end], ",") && !closes(ts[end]))
          end = opens(ts[end]) ? closing(ts, end) + 1 : end + 1;
        append(out, "sy_ref_" + pointers.at(ts[i].text) + "_at(" + ts[i].text + ", ");
        append(out, pointer_uses(slice(ts, skip(ts, next + 1), end), pointers));
        append(out, ")");
        i = end - 1;
      } else {
        out.push_back(ts[i]);
      }
    }
    return out;
  }

  // Calls of shared helpers lose their array arguments; each helper is bound once per entry.
  Tokens shared_calls(const Tokens& ts, std::vector<std::pair<std::string, Binding>>& needed) {
    Tokens out;
    for (std::size_t i = 0; i < ts.size(); ++i) {
      auto it = ts[i].kind == T::Ident ? shared_.find(ts[i].text) : shared_.end();
      const std::size_t open = skip(ts, i + 1);
      if (it == shared_.end() || open >= ts.size() || !is(ts[open], "(")) {
        out.push_back(ts[i]);
        continue;
      }
      const SharedHelper& h = it->second;
      const std::size_t close = closing(ts, open);
      const auto args = split_commas(ts, open + 1, close);
      if (args.size() != h.params.size()) unsupported("a call of " + it->first);
      Binding binding;
      std::string kept;
      for (std::size_t a = 0; a < args.size(); ++a) {
        const std::string arg = print(slice(ts, skip(ts, args[a].first), args[a].second));
        if (h.shared[a]) {
          binding[h.names[a]] = tokenize(arg).front().text;
        } else {
          kept += (kept.empty() ? "" : ", ") + print(shared_calls(tokenize(arg), needed));
        }
      }
      bool known = false;
      for (const auto& [name, b] : needed)
        if (name == it->first) {
          if (b != binding) unsupported(it->first + " bound to two sets of arrays in one entry");
          known = true;
        }
      if (!known) needed.emplace_back(it->first, binding);
      append(out, it->first + "(" + kept + ")");
      i = close;
    }
    return out;
  }

  // The statements of a function body, translated.
  Tokens statements(const Tokens& body, Pointers& pointers,
                    std::vector<std::pair<std::string, Binding>>& needed) {
    Tokens ts = rename(body, {});
    ts = booleans(ts);
    ts = pointer_declarations(ts, pointers);
    ts = pointer_uses(ts, pointers);
    ts = casts(ts);
    return shared_calls(ts, needed);
  }

  std::string helper(const Tokens& f) {
    const std::size_t name_open = [&] {
      std::size_t i = 0;
      while (!is(f[i], "(")) ++i;
      return i;
    }();
    const std::size_t params_close = closing(f, name_open);
    const auto params = split_commas(f, name_open + 1, params_close);
    bool any_shared = false;
    for (const auto& [b, e] : params)
      for (std::size_t k = b; k < e; ++k) any_shared = any_shared || is(f[k], "SY_LOCAL_PTR");
    const std::size_t sig_begin = skip(f, 1);
    if (!any_shared) {
      Pointers none;
      std::vector<std::pair<std::string, Binding>> needed;
      const std::string s = print(statements(slice(f, sig_begin, f.size()), none, needed));
      if (!needed.empty()) unsupported("a helper calling a helper on arrays");
      return s;
    }
    SharedHelper h;
    h.signature = slice(f, sig_begin, name_open);
    for (const auto& [b, e] : params) {
      h.params.push_back(slice(f, b, e));
      bool shared = false;
      for (std::size_t k = b; k < e; ++k) shared = shared || is(f[k], "SY_LOCAL_PTR");
      h.shared.push_back(shared);
      h.names.push_back(last_ident(f, b, e));
    }
    h.body = slice(f, skip(f, params_close + 1), f.size());
    shared_[last_ident(f, sig_begin, name_open)] = std::move(h);
    return "";  // defined in each entry point that calls it
  }

  // Helper `name` with its arrays bound, after the helpers it calls.
  void specialise(const std::string& name, const Binding& binding, std::string& out,
                  std::set<std::string>& done) {
    if (done.count(name)) return;
    const SharedHelper& h = shared_.at(name);
    std::vector<std::pair<std::string, Binding>> needed;
    Pointers none;
    const Tokens body = statements(rename(h.body, binding), none, needed);
    for (const auto& [callee, b] : needed) specialise(callee, b, out, done);
    std::string params;
    for (std::size_t p = 0; p < h.params.size(); ++p)
      if (!h.shared[p])
        params += (params.empty() ? "" : ", ") + print(casts(h.params[p]), skip(h.params[p], 0));
    out += print(rename(h.signature, {})) + "(" + params + ") " + print(body) + "\n";
    done.insert(name);
  }

  std::string kernel(const Tokens& f) {
    std::size_t open = 0;
    while (!is(f[open], "(")) ++open;
    const std::string name = last_ident(f, 0, open);
    const std::size_t close = closing(f, open);
    Pointers pointers;
    std::string members, copies;
    for (const auto& [b, e] : split_commas(f, open + 1, close)) {
      const std::string param = glsl_name(last_ident(f, b, e));
      std::string type;
      for (std::size_t k = b; k < e; ++k)
        if (is(f[k], "SY_GLOBAL")) {
          const std::string element = f[skip(f, k + 1)].text;
          type = reference(element);
          pointers[param] = concrete(element);
        }
      if (type.empty()) {
        std::size_t at = skip(f, b);
        if (is(f[at], "const")) at = skip(f, at + 1);
        type = concrete(f[at].text);
      }
      members += "  " + type + " " + param + ";\n";
      copies += "  " + type + " " + param + " = sy_args." + param + ";\n";
    }
    // Work-group arrays move to global scope, inside the #if lines they were declared under.
    const std::size_t body_open = find_body(f, close);
    Tokens body, shared;
    std::vector<std::string> conditions;
    for (std::size_t i = body_open; i < f.size(); ++i) {
      if (f[i].kind == T::Directive) {
        if (f[i].text.rfind("#if", 0) == 0) conditions.push_back(f[i].text);
        if (f[i].text.rfind("#endif", 0) == 0) conditions.pop_back();
      }
      if (!is(f[i], "SY_LOCAL")) {
        body.push_back(f[i]);
        continue;
      }
      std::size_t end = i;
      while (!is(f[end], ";")) ++end;
      std::string decl;
      for (const std::string& c : conditions) decl += c + "\n";
      decl += "shared " + print(f, skip(f, i + 1), end + 1) + "\n";
      for (std::size_t c = 0; c < conditions.size(); ++c) decl += "#endif\n";
      append(shared, decl);
      i = end;
      if (i + 1 < f.size() && f[i + 1].kind == T::Space) ++i;  // and the line break
    }
    std::vector<std::pair<std::string, Binding>> needed;
    const Tokens translated = statements(body, pointers, needed);
    std::string helpers;
    std::set<std::string> done;
    for (const auto& [callee, b] : needed) specialise(callee, b, helpers, done);
    const std::string block = "sy_args_" + name;
    // The opening brace of the body is main()'s; the argument copies follow it.
    const std::string text = print(translated);
    return "#ifdef SY_ENTRY_" + name + "\nlayout(local_size_x = " + std::to_string(local_) +
           ") in;\nlayout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer " +
           block + " {\n" + members + "};\nlayout(push_constant, std430) uniform sy_push {\n  " +
           block + " sy_args;\n};\n" + print(casts(shared)) + helpers + "void main() {\n" + copies +
           text.substr(text.find('{') + 1) + "\n#endif";
  }

  int local_;
  std::map<std::string, std::string> aliases_;
  std::map<std::string, SharedHelper> shared_;
  std::set<std::string> element_types_;
};

}  // namespace

std::string glsl_element(std::string_view glsl_type, std::string_view pointer,
                         std::string_view index) {
  return "sy_ref_" + std::string(glsl_type) + "_at(" + std::string(pointer) + ", " +
         std::string(index) + ").v[0]";
}

std::string glsl_from_library_c(std::string_view head, std::string_view c_source, int local_size) {
  return Translator(local_size).program(head, c_source);
}

}  // namespace switchyard::codegen
