#include "secret.h"

#include <sodium.h>
#include <string.h>

#include "util.h"

/* OWASP's first choice for Argon2id: m = 19 MiB, t = 2, p = 1. */
static unsigned long long passes = 2;
static size_t memory = 19u * 1024 * 1024;
/* A hash of a random password, checked when there is no account, to take the same time. */
static char stand_in[SECRET_HASH_MAX];

bool secret_start(void)
{
    char password[SECRET_LEN + 1];
    return sodium_init() >= 0 && secret_new(password) && secret_hash_password(password, stand_in);
}

void secret_set_cost(unsigned long long p, size_t m)
{
    passes = p;
    memory = m;
}

bool secret_hash_password(const char *password, char out[SECRET_HASH_MAX])
{
    _Static_assert(crypto_pwhash_STRBYTES <= SECRET_HASH_MAX, "room for a hash");
    return crypto_pwhash_str_alg(out, password, strlen(password), passes, memory, crypto_pwhash_ALG_ARGON2ID13) == 0;
}

bool secret_check_password(const char *hash, const char *password)
{
    bool real = hash != NULL;
    int rc = crypto_pwhash_str_verify(real ? hash : stand_in, password, strlen(password));
    return real && rc == 0;
}

bool secret_needs_rehash(const char *hash)
{
    return crypto_pwhash_str_needs_rehash(hash, passes, memory) != 0;
}

bool secret_new(char out[SECRET_LEN + 1])
{
    return util_random_string(out, SECRET_LEN, TOKEN_ALPHABET);
}

void secret_digest(const char *secret, char out[SECRET_DIGEST_LEN + 1])
{
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, (const unsigned char *)secret, strlen(secret));
    sodium_bin2hex(out, SECRET_DIGEST_LEN + 1, digest, sizeof digest);
}
