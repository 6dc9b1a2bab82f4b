//===- NvFuserLexer.h - tokens of nvFuser's printed fusion math -*- C++ -*-===//
//
// Splits nvFuser's printed fusion math into tokens. Tokens point into the
// source buffer, so their locations are exact for diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef FUSER_LIB_TARGET_NVFUSER_NVFUSERLEXER_H
#define FUSER_LIB_TARGET_NVFUSER_NVFUSERLEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace mlir::fuser::nvfuser {

struct Token {
  enum class Kind {
    Eof,
    Invalid, // a character that starts no token
    Identifier,
    Integer,
    Float, // digits with a fraction or an exponent
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Comma,
    Colon,
    Semicolon,
    Dot,
    Percent,
    Equal,
    Plus,
    Minus,
    Star,
    Slash,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    EqualEqual,
    NotEqual,
    LessLess,       // <<
    GreaterGreater, // >>
    Amp,            // &
    AmpAmp,         // &&
    Pipe,           // |
    PipePipe,       // ||
    Caret,          // ^
    Tilde,          // ~
    Bang,           // !
  };

  Kind kind = Kind::Eof;
  llvm::StringRef spelling;

  bool is(Kind k) const { return kind == k; }
  bool isIdentifier(llvm::StringRef name) const {
    return kind == Kind::Identifier && spelling == name;
  }
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data());
  }
};

/// A cursor over a buffer. `lex` returns the next token; `getPosition` and
/// `resetTo` let the parser look ahead and back up.
class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer)
      : buffer(buffer), current(buffer.begin()) {}

  Token lex();

  const char *getPosition() const { return current; }
  void resetTo(const char *position) { current = position; }

private:
  Token makeToken(Token::Kind kind, const char *start) const {
    return Token{kind, llvm::StringRef(start, current - start)};
  }
  void skipWhitespaceAndComments();
  Token lexNumber(const char *start);

  void skipIdentifierChars();
  void lexStdQualifiedName(const char *start);

  llvm::StringRef buffer;
  const char *current;
};

} // namespace mlir::fuser::nvfuser

#endif // FUSER_LIB_TARGET_NVFUSER_NVFUSERLEXER_H
