//===- NvFuserLexer.cpp - tokens of nvFuser's printed fusion math ---------===//

#include "NvFuserLexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::fuser::nvfuser;
using Kind = Token::Kind;

void Lexer::skipWhitespaceAndComments() {
  const char *end = buffer.end();
  while (current != end) {
    if (llvm::isSpace(*current)) {
      ++current;
      continue;
    }
    // nvFuser closes the body with `} // %kernel_math` in some versions.
    if (*current == '/' && current + 1 != end && current[1] == '/') {
      while (current != end && *current != '\n')
        ++current;
      continue;
    }
    return;
  }
}

Token Lexer::lexNumber(const char *start) {
  const char *end = buffer.end();
  auto skipDigits = [&] {
    while (current != end && llvm::isDigit(*current))
      ++current;
  };
  skipDigits();
  bool isFloat = false;
  if (current != end && *current == '.' && current + 1 != end &&
      llvm::isDigit(current[1])) {
    isFloat = true;
    ++current;
    skipDigits();
  }
  // An exponent needs at least one digit; `1e` alone stays an integer
  // followed by an identifier, which the parser then rejects.
  if (current != end && (*current == 'e' || *current == 'E')) {
    const char *exponent = current + 1;
    if (exponent != end && (*exponent == '+' || *exponent == '-'))
      ++exponent;
    if (exponent != end && llvm::isDigit(*exponent)) {
      isFloat = true;
      current = exponent;
      skipDigits();
    }
  }
  return makeToken(isFloat ? Kind::Float : Kind::Integer, start);
}

void Lexer::skipIdentifierChars() {
  while (current != buffer.end() &&
         (llvm::isAlnum(*current) || *current == '_'))
    ++current;
}

/// nvFuser prints C++ names for complex dtypes and parts: `std::real`,
/// `std::complex<float>`, also after a tensor's memory type
/// (`T0_g_std::complex<float>`). The identifier so far (from `start`)
/// takes in `::name` and a template argument, so that each is one
/// identifier.
void Lexer::lexStdQualifiedName(const char *start) {
  llvm::StringRef word(start, current - start);
  llvm::StringRef rest(current, buffer.end() - current);
  if (!(word == "std" || word.ends_with("_std")) || !rest.starts_with("::"))
    return;
  current += 2;
  skipIdentifierChars();
  // A template argument: `<` identifier `>` (the importer names the
  // unsupported ones, such as `std::complex<half>`, whole).
  const char *argument = current;
  if (current == buffer.end() || *current != '<')
    return;
  ++current;
  skipIdentifierChars();
  if (current == buffer.end() || *current != '>') {
    current = argument;
    return;
  }
  ++current;
}

Token Lexer::lex() {
  skipWhitespaceAndComments();
  const char *start = current;
  if (current == buffer.end())
    return makeToken(Kind::Eof, start);

  char c = *current++;
  if (llvm::isAlpha(c) || c == '_') {
    skipIdentifierChars();
    lexStdQualifiedName(start);
    return makeToken(Kind::Identifier, start);
  }
  if (llvm::isDigit(c))
    return lexNumber(start);

  auto twoChar = [&](char next, Kind ifNext, Kind otherwise) {
    if (current != buffer.end() && *current == next) {
      ++current;
      return makeToken(ifNext, start);
    }
    return makeToken(otherwise, start);
  };
  switch (c) {
  case '[':
    return makeToken(Kind::LSquare, start);
  case ']':
    return makeToken(Kind::RSquare, start);
  case '{':
    return makeToken(Kind::LBrace, start);
  case '}':
    return makeToken(Kind::RBrace, start);
  case '(':
    return makeToken(Kind::LParen, start);
  case ')':
    return makeToken(Kind::RParen, start);
  case ',':
    return makeToken(Kind::Comma, start);
  case ':':
    return makeToken(Kind::Colon, start);
  case ';':
    return makeToken(Kind::Semicolon, start);
  case '.':
    return makeToken(Kind::Dot, start);
  case '%':
    return makeToken(Kind::Percent, start);
  case '+':
    return makeToken(Kind::Plus, start);
  case '-':
    return makeToken(Kind::Minus, start);
  case '*':
    return makeToken(Kind::Star, start);
  case '/':
    return makeToken(Kind::Slash, start);
  case '=':
    return twoChar('=', Kind::EqualEqual, Kind::Equal);
  case '<':
    if (current != buffer.end() && *current == '<')
      return twoChar('<', Kind::LessLess, Kind::Less);
    return twoChar('=', Kind::LessEqual, Kind::Less);
  case '>':
    if (current != buffer.end() && *current == '>')
      return twoChar('>', Kind::GreaterGreater, Kind::Greater);
    return twoChar('=', Kind::GreaterEqual, Kind::Greater);
  case '!':
    return twoChar('=', Kind::NotEqual, Kind::Bang);
  case '&':
    return twoChar('&', Kind::AmpAmp, Kind::Amp);
  case '|':
    return twoChar('|', Kind::PipePipe, Kind::Pipe);
  case '^':
    return makeToken(Kind::Caret, start);
  case '~':
    return makeToken(Kind::Tilde, start);
  default:
    return makeToken(Kind::Invalid, start);
  }
}
