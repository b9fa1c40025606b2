package dev.gq.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of a batch file into a command's words the way a POSIX shell would, without
 * running a shell: blanks separate words, single quotes keep everything, double quotes keep all
 * but {@code \" \\ \$ \`}, a backslash keeps the next character, and an unquoted {@code #} starting
 * a word begins a comment. What a shell would expand or interpret (variables, patterns, {@code ~},
 * pipes, redirections, {@code ;}, {@code &}, a leading {@code NAME=value}) is refused rather than
 * passed on changed, so a line means here what it means in a shell. Pure; a problem is an
 * {@link IllegalArgumentException} whose message is one line.
 */
final class ShellWords {
  private static final String OPERATORS = "|;&<>()`";
  private static final String PATTERNS = "*?[";

  private final String line;
  private final List<String> words = new ArrayList<>();
  private final StringBuilder word = new StringBuilder();
  private boolean inWord;
  private boolean quotedSoFar;
  private int i;

  private ShellWords(String line) {
    this.line = line;
  }

  static List<String> split(String line) {
    ShellWords s = new ShellWords(line);
    s.run();
    return s.words;
  }

  private void run() {
    for (i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == ' ' || c == '\t' || c == '\r') endWord();
      else if (c == '#' && !inWord) return;
      else if (c == '\'') single();
      else if (c == '"') dbl();
      else if (c == '\\') escaped();
      else plain(c);
    }
    endWord();
  }

  private void plain(char c) {
    if (c == '$') throw new IllegalArgumentException(dollar());
    if (OPERATORS.indexOf(c) >= 0) {
      throw new IllegalArgumentException("unquoted '" + c + "' is shell syntax, and gq runs the command without a shell;"
          + " quote it, or run the line through bash -c '...'");
    }
    if (PATTERNS.indexOf(c) >= 0) {
      throw new IllegalArgumentException("unquoted '" + c + "' would be a file name pattern in a shell, and gq expands none;"
          + " quote it to pass it as it is");
    }
    if (c == '~' && !inWord) {
      throw new IllegalArgumentException("a leading '~' would be your home directory in a shell, and gq expands none;"
          + " write the full path, or quote it");
    }
    if (c == '=' && words.isEmpty() && !quotedSoFar && word.toString().matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("'" + word + "=...' would set a variable in a shell; write 'env " + word + "=... CMD' instead");
    }
    word.append(c);
    inWord = true;
  }

  private void single() {
    int end = line.indexOf('\'', i + 1);
    if (end < 0) throw new IllegalArgumentException("unterminated single quote");
    word.append(line, i + 1, end);
    inWord = true;
    quotedSoFar = true;
    i = end;
  }

  private void dbl() {
    inWord = true;
    quotedSoFar = true;
    for (i++; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') return;
      if (c == '$' || c == '`') throw new IllegalArgumentException(dollar());
      if (c == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) c = line.charAt(++i);
      word.append(c);
    }
    throw new IllegalArgumentException("unterminated double quote");
  }

  private void escaped() {
    if (i + 1 >= line.length()) {
      throw new IllegalArgumentException("the line ends in a backslash; each job is one line");
    }
    word.append(line.charAt(++i));
    inWord = true;
    quotedSoFar = true;
  }

  private void endWord() {
    if (inWord) words.add(word.toString());
    word.setLength(0);
    inWord = false;
    quotedSoFar = false;
  }

  private static String dollar() {
    return "'$' and '`' would be expanded by a shell, and gq expands nothing; quote it in single quotes ('$HOME'),"
        + " or run the line through bash -c '...'";
  }
}
