/*
 * The accounts' secrets (libsodium): passwords hashed with Argon2id, and the random session
 * ids and API tokens, which the store keeps only as their SHA-256.
 *
 * Argon2id's cost (SECURITY.md): 2 passes over 19 MiB, one lane (OWASP's first choice), about
 * 30 ms here.  A stored hash names its own parameters, so a hash made with other ones still
 * verifies, and secret_needs_rehash says when to make it again with today's.
 */
#ifndef STARFISH_SERVER_SECRET_H
#define STARFISH_SERVER_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#define SECRET_HASH_MAX 128 /* a password's hash: "$argon2id$v=19$m=19456,t=2,p=1$...$..." */
#define SECRET_LEN 32       /* a session id or token: 32 characters of TOKEN_ALPHABET, 192 bits */
#define SECRET_DIGEST_LEN 64 /* its SHA-256 in hexadecimal */

/* Prepares libsodium and the stand-in hash (at start); false when it cannot. */
bool secret_start(void);
/* Sets Argon2id's cost (passes, bytes of memory) for the hashes made from now on: the fuzz
 * targets make it cheap.  Call before any thread hashes. */
void secret_set_cost(unsigned long long passes, size_t memory);

/* The password's hash (Argon2id with a random salt) in out; false when memory runs out. */
bool secret_hash_password(const char *password, char out[SECRET_HASH_MAX]);
/* Does the password match the hash?  With hash NULL (no such account) the work is done
 * against a stand-in hash all the same, so that the answer takes as long. */
bool secret_check_password(const char *hash, const char *password);
/* Was the hash made with other parameters than today's? */
bool secret_needs_rehash(const char *hash);

/* A new random secret (SECRET_LEN characters and a NUL); false when the kernel's random
 * source fails. */
bool secret_new(char out[SECRET_LEN + 1]);
/* The hex SHA-256 of a secret as the store keeps it. */
void secret_digest(const char *secret, char out[SECRET_DIGEST_LEN + 1]);

#endif
