/*
 * oubli from C: open a store, inscribe, recall, supersede, purge, and verify the purge's
 * signed receipt offline.
 *
 *   cargo build -p oubli-c
 *   cc -std=c11 -Wall -Wextra -Werror -I bindings/c/include bindings/c/examples/example.c \
 *      -L target/debug -loubli_c -Wl,-rpath,"$PWD/target/debug" -o oubli-example
 *   ./oubli-example /tmp/example.oubli
 *
 * Exits 0 when every step behaved as expected, 1 otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oubli.h"

static int failures = 0;

/* Checks a status; on failure prints the library's message and counts the failure. */
static int ok(OubliStatus status, const char *what) {
    if (status == OUBLI_STATUS_OK) {
        return 1;
    }
    const char *msg = oubli_last_error();
    fprintf(stderr, "FAIL %s: %s (%s)\n", what, oubli_status_name(status), msg ? msg : "");
    failures++;
    return 0;
}

static void expect(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "FAIL %s\n", what);
        failures++;
    }
}

/* Whether any of the first k hits' texts contains needle. */
static int hits_contain(const OubliHits *hits, const char *needle) {
    for (size_t i = 0; i < oubli_hits_len(hits); i++) {
        const char *text = oubli_row_text(oubli_hits_row(hits, i));
        if (text != NULL && strstr(text, needle) != NULL) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "example.oubli";
    printf("oubli %s\n", oubli_version());

    /* 1. Open: create a new store file (fails if one is already there). */
    OubliStore *store = NULL;
    OubliOpenOptions options = {.flags = OUBLI_OPEN_CREATE | OUBLI_OPEN_EXCLUSIVE};
    if (!ok(oubli_store_open(path, &options, &store), "open")) {
        return 1;
    }

    /* 2. Inscribe: plain text, and a row with namespace, key and metadata. */
    uint64_t id = 0;
    ok(oubli_inscribe_text(store, "The team standup moved to 9:30 on Mondays", NULL, NULL, &id),
       "inscribe standup");
    OubliPair meta[] = {{.key = "category", .value = "contact"}};
    OubliInscription phone = {
        .text = "Maria Keller's phone number is +49 30 1234567",
        .ns = "crm",
        .key = "maria-phone",
        .metadata = meta,
        .metadata_len = 1,
    };
    uint64_t phone_id = 0;
    ok(oubli_inscribe(store, &phone, &phone_id), "inscribe phone");
    ok(oubli_inscribe_text(store, "The staging password is tulip-4417", "ops", "staging-pw", &id),
       "inscribe password");

    /* 3. Recall. */
    OubliHits *hits = NULL;
    if (ok(oubli_recall_text(store, "Maria Keller phone", 5, &hits), "recall")) {
        expect(oubli_hits_len(hits) > 0, "recall returns hits");
        const OubliRow *best = oubli_hits_row(hits, 0);
        printf("recall: %s (score %.4f, state %s)\n", oubli_row_text(best),
               oubli_hits_score(hits, 0), oubli_row_state(best));
        expect(oubli_row_id(best) == phone_id, "the phone row ranks first");
        expect(strcmp(oubli_row_namespace(best), "crm") == 0, "namespace is crm");
        expect(strcmp(oubli_row_key(best), "maria-phone") == 0, "key is maria-phone");
        expect(oubli_row_metadata_len(best) == 1 &&
                   strcmp(oubli_row_metadata_value(best, 0), "contact") == 0,
               "metadata survives");
        expect(oubli_hits_row(hits, 1000) == NULL, "out-of-range hit is NULL");
        oubli_hits_free(hits);
    }

    /* 4. Supersede the rotated password by key: only the new one is recalled. */
    OubliTarget pw = {.kind = OUBLI_TARGET_KEY, .ns = "ops", .key = "staging-pw"};
    OubliInscription rotated = {.text = "The staging password is orchid-9051"};
    uint64_t new_id = 0;
    ok(oubli_supersede(store, &pw, &rotated, &new_id), "supersede");
    hits = NULL;
    if (ok(oubli_recall_text(store, "staging password", 10, &hits), "recall password")) {
        expect(hits_contain(hits, "orchid-9051"), "the new password is recalled");
        expect(!hits_contain(hits, "tulip-4417"), "the old password is not recalled");
        oubli_hits_free(hits);
    }

    /* 5. Purge Maria's phone number: erased from the file, with a signed receipt. */
    OubliTarget maria = {.kind = OUBLI_TARGET_QUERY, .query = "Maria Keller phone number"};
    OubliPurgeReport *report = NULL;
    if (!ok(oubli_purge(store, &maria, &report), "purge")) {
        oubli_store_free(store);
        return 1;
    }
    printf("purge %llu erased %zu row(s), audit %s\n",
           (unsigned long long)oubli_purge_report_seq(report),
           oubli_purge_report_erased_len(report),
           oubli_purge_report_audit_clean(report) ? "clean" : "NOT clean");
    expect(oubli_purge_report_erased_len(report) == 1 &&
               oubli_purge_report_erased(report, 0) == phone_id,
           "the phone row was erased");

    OubliRow *gone = NULL;
    if (ok(oubli_get(store, phone_id, &gone), "get purged row")) {
        expect(oubli_row_text(gone) == NULL, "a purged row has no text");
        expect(strcmp(oubli_row_state(gone), "void") == 0, "a purged row is void");
        expect(isnan(oubli_row_depth(gone)), "a void depth is NaN");
        oubli_row_free(gone);
    }

    /* 6. Verify the receipt offline, as a privacy officer would, with the store's key. */
    uint8_t public_key[32];
    ok(oubli_store_public_key(store, public_key), "public key");
    size_t receipt_len = 0, opening_len = 0;
    const char *receipt = oubli_purge_report_receipt(report, &receipt_len);
    const char *opening = oubli_purge_report_opening(report, &opening_len);
    uint64_t purge_id = 0;
    ok(oubli_receipt_verify(receipt, receipt_len, public_key, &purge_id), "verify receipt");
    expect(purge_id == oubli_purge_report_seq(report), "receipt names the purge");
    ok(oubli_receipt_check_opening(receipt, receipt_len, opening, opening_len), "check opening");
    uint64_t covering = 0;
    ok(oubli_receipt_covers(receipt, receipt_len, opening, opening_len,
                            "Maria Keller's phone number is +49 30 1234567", &covering),
       "receipt covers the erased text");
    expect(covering == phone_id, "the covering row is the phone row");

    /* A changed byte fails verification. */
    char *tampered = malloc(receipt_len);
    memcpy(tampered, receipt, receipt_len);
    char *digit = strstr(tampered, "\"purge_id\":");
    if (digit != NULL) {
        digit[11] = digit[11] == '9' ? '8' : (char)(digit[11] + 1);
    }
    expect(oubli_receipt_verify(tampered, receipt_len, public_key, NULL) ==
               OUBLI_STATUS_VERIFICATION,
           "a tampered receipt fails verification");
    printf("tampered receipt: %s\n", oubli_last_error());
    free(tampered);
    oubli_purge_report_free(report);

    /* 7. The log verifies; errors are typed. */
    uint64_t events = 0;
    ok(oubli_store_verify_log(store, NULL, &events), "verify log");
    printf("log verified: %llu events\n", (unsigned long long)events);

    const char bad_utf8[] = {'p', 'h', 'o', 'n', 'e', (char)0xff, 0};
    hits = NULL;
    expect(oubli_recall_text(store, bad_utf8, 5, &hits) == OUBLI_STATUS_INVALID_UTF8 &&
               hits == NULL,
           "invalid UTF-8 is rejected");
    expect(oubli_recall_text(store, NULL, 5, &hits) == OUBLI_STATUS_NULL_POINTER,
           "NULL is rejected");
    expect(oubli_purge(store, &maria, &report) == OUBLI_STATUS_NO_MATCH,
           "purging again matches nothing");

    char *history = NULL;
    if (ok(oubli_history_json(store, new_id, &history), "history")) {
        expect(strstr(history, "\"chain\"") != NULL, "history lists the chain");
        oubli_string_free(history);
    }

    /* 8. Close: later calls fail with OUBLI_STATUS_CLOSED; free the handle. */
    ok(oubli_store_close(store), "close");
    expect(oubli_recall_text(store, "password", 5, &hits) == OUBLI_STATUS_CLOSED,
           "a closed store refuses calls");
    oubli_store_free(store);

    if (failures > 0) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all checks passed\n");
    return 0;
}
