/* text: small operations on human text, shared by the parsers and the CLI. */
#ifndef WSLGPU_TEXT_H
#define WSLGPU_TEXT_H

/*
 * Edit distance (insertions, deletions, substitutions; no transpositions),
 * ignoring ASCII case, for "did you mean" hints. Strings longer than 40
 * bytes are never a typo of a known name: 99.
 */
int text_distance(const char *a, const char *b);

#endif
