/* What the two square-says test files share: the variants' names, and the castling position
 * (royals on e1/e8, Q squares, with men on e2/e7 closing the e-file, corner men on a1 h1 a8
 * h8). */
#ifndef STARFISH_SQUARE_SAYS_TEST_H
#define STARFISH_SQUARE_SAYS_TEST_H

#define SS "square-says"
#define SSR "square-says-reversed"
#define CASTLE_FEN "m3k2m/4m3/8/8/8/8/4M3/M3K2M w KQkq - 0 1"

#endif
