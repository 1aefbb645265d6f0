#!/bin/sh
# secrets.sh: every secret shape the redactor knows (src/bundle/redact.c:
# the token formats of the clouds, registries, chat tools and AI services,
# JWTs, webhook URLs, Azure SAS signatures, PuTTY and one-line PEM keys, an
# AWS secret beside its key id, and the secrets named by their variable),
# seeded into every place the report-secrets machine gives a bundle member
# or a check result, must be in no member of `wslgpu report`'s bundle (nor
# its raw tar stream), and in no output of check (text, --json), smoke
# (--json, --junit, --prom), fix and explain --check. What the report needs
# stays: driver and package versions, hashes of libraries and images, the
# GPU UUID (a placeholder in the bundle; as it is in the user's own outputs).
#
# The examples are made up, and assembled here from pieces, so that no
# scanner takes this file for a leak.
. "$(dirname "$0")/lib.sh"

check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

# NAME|SECRET-PART|TEXT: TEXT is seeded, SECRET-PART must vanish ("=" : TEXT).
SHAPES="$WORK/shapes"
a=aB3dE5gH7jK9mN1pQ3sT5vW7yZ9xR2cF4hL6nP8qS0uV
h=0a1b2c3d4e5f60718293a4b5c6d7e8f9
u=A1B2C3D4E5F6G7H8J9K0L1M2
{
	for p in ghp_ gho_ ghu_ ghs_ ghr_; do echo "GitHub $p|=|${p}$a"; done
	echo "GitHub fine-grained|=|github_""pat_11ABCDEFG0_$a"
	for p in glpat- gldt- glrt- glptt- glcbt- gloas-; do echo "GitLab $p|=|${p}$a"; done
	echo "GitLab runner registration|=|GR1348941$a"
	for p in xoxb- xoxp- xoxa- xoxr- xoxs- xapp- xoxe-; do echo "Slack $p|=|${p}1234567890-$a"; done
	echo "Slack rotating|=|xoxe.xoxp-1-$a"
	for p in AKIA ASIA ABIA ACCA; do echo "AWS $p|=|${p}$(printf %.16s "$u")"; done
	echo "Google API key|=|AIza$(printf %.35s "$a$a")"
	echo "Google OAuth|=|ya""29.a0$a-$a"
	echo "Google client secret|=|GOCSPX-$a"
	echo "Hugging Face|=|hf_$a"
	echo "Hugging Face org|=|api_""org_$a"
	echo "Anthropic|=|sk-ant-api03-$a-$a"
	echo "OpenAI project|=|sk-proj-$a$a"
	echo "OpenAI service account|=|sk-svcacct-$a"
	echo "OpenAI|=|sk-$a"
	echo "Stripe live secret|=|sk_""live_$a"
	echo "Stripe restricted|=|rk_""live_$a"
	echo "Stripe webhook|=|whsec_$a"
	echo "Docker PAT|=|dckr_""pat_$a"
	echo "Docker org token|=|dckr_""oat_$a"
	echo "NGC|=|nvapi-$a"
	echo "npm|=|npm_$a"
	echo "PyPI|=|pypi-AgEIcHlwaS5vcmc$a$a"
	echo "Twilio API key|=|SK$h"
	echo "Mailgun|=|key-$(printf %.32s "$h$h")"
	echo "DigitalOcean|=|dop_v1_$h$h"
	echo "Shopify|=|shpat_$h"
	echo "Vault|=|hvs.$a"
	echo "age|=|AGE-SECRET-KEY-1$u$u"
	echo "Replicate|=|r8_$a"
	echo "Groq|=|gsk_$a$a"
	echo "JWT|eyJzdWIiOiJ3c2xncHUifQ.c2lnbmF0dXJlLW5vdC1yZWFs|eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ3c2xncHUifQ.c2lnbmF0dXJlLW5vdC1yZWFs"
	echo "SendGrid|=|SG.$(printf %.22s "$a").$(printf %.43s "$a$a")"
	echo "Discord bot|=|MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.$(printf %.30s "$a")"
	echo "Telegram bot|AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw|123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
	echo "Slack webhook|T0A1B2C3D/B4E5F6G7H/$(printf %.24s "$a")|https://hooks.slack.com/""services/T0A1B2C3D/B4E5F6G7H/$(printf %.24s "$a")"
	echo "Discord webhook|$(printf %.30s "$a")|https://discord.com/api/""webhooks/123456789012345678/$(printf %.30s "$a")"
	echo "Azure SAS|$(printf %.30s "$a")%2B%3D|https://acme.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=$(printf %.30s "$a")%2B%3D"
	echo "AWS secret beside its id|wJalrXUtnFEMI/K7MDENG/bPxRfiCYSEEDED0KEY|AKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYSEEDED0KEY"
	echo "Datadog by name|=|DD_API_KEY=$h"
	echo "Twilio token by name|=|TWILIO_AUTH_TOKEN=9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	echo "W&B by name|=|WANDB_API_KEY=${h}01234567"
	echo "Azure AccountKey|$a/$(printf %.20s "$a")==|DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=$a/$(printf %.20s "$a")==;EndpointSuffix=core.windows.net"
} >"$SHAPES"
# multi-line and spaced ones: in files only
PEM_ONE="-----BEGIN RSA PRIVATE"" KEY----- MIIEowIBAAKCAQEAOneLineSeededKey$a -----END RSA PRIVATE KEY-----"
PEM_JSON="{\"private_key\": \"-----BEGIN PRIVATE"" KEY-----\\nMIIEvQIBADANJsonSeededKey$a\\n-----END PRIVATE KEY-----\\n\"}"
NETRC="machine api.wandb.ai login marguerite password ${h}7654321a"
PPK="PuTTY-User-Key-File-3: ssh-ed25519
Encryption: none
Comment: seeded
Public-Lines: 1
AAAAC3NzaC1lZDI1NTE5AAAAIHB1YmxpYy1wYXJ0
Private-""Lines: 2
AAAAIHByaXZhdGVTZWVkZWRQdXR0eUxpbmUx
AAAAIHByaXZhdGVTZWVkZWRQdXR0eUxpbmUy
Private-""MAC: ${h}${h}"
{
	echo "PEM on one line|MIIEowIBAAKCAQEAOneLineSeededKey$a"
	echo "PEM in JSON|MIIEvQIBADANJsonSeededKey$a"
	echo "W&B .netrc|${h}7654321a"
	echo "PuTTY body line 1|AAAAIHByaXZhdGVTZWVkZWRQdXR0eUxpbmUx"
	echo "PuTTY body line 2|AAAAIHByaXZhdGVTZWVkZWRQdXR0eUxpbmUy"
	echo "PuTTY MAC|${h}${h}"
} >"$WORK/filesonly"

# Things the report needs, that no rule may take for a secret.
KEPT="$WORK/kept"
cat >"$KEPT" <<'EOF'
551.23
5.15.167.4-microsoft-standard-WSL2
sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
BuildID[sha1]=5e7c0f2b9a1d4c3e8f6a0b1c2d3e4f5a6b7c8d9e
nvidia-cudnn-cu12 9.1.0.70
nvidia-cublas-cu12 12.4.5.8
EOF

fixture report-secrets
# Where the machine's text reaches a bundle member or a check result:
#   a file of /etc/ld.so.conf.d (collected whole), .wslconfig (collected),
#   nvidia-smi's output (nvml.smi's evidence; the bundle's nvidia-smi -q),
#   docker info (the bundle's docker-info.txt), the environment
#   (environment.txt; CUDA_HOME reaches libs' checks and check's outputs).
CONF="$ROOT/etc/ld.so.conf.d/zz-seen.conf"
WSLC="$ROOT/mnt/c/Users/Marguerite.Dupont/.wslconfig"
EXTRA="$WORK/extra.txt"
: >"$EXTRA"
while IFS='|' read -r name secret text; do
	printf '# seen in a log: %s\n' "$text" >>"$CONF"
	printf '# %s\n' "$text" >>"$WSLC"
	printf '%s\n' "$text" >>"$EXTRA"
done <"$SHAPES"
for t in "$PEM_ONE" "$PEM_JSON" "$NETRC" "$PPK"; do
	printf '%s\n' "$t" >>"$CONF"
	printf '%s\n' "$t" >>"$EXTRA"
done
cat "$KEPT" >>"$EXTRA"
cat "$KEPT" >>"$CONF"
# nvidia-smi and docker print it all too, after what they print now; with
# SEEDS_BATCH=N, nvidia-smi prints only the N-th kilobyte of it (nvml.smi
# keeps the first 2000 bytes of the output as evidence)
awk -v out="$EXTRA" 'BEGIN { b = 1 } { if (n + length($0) > 1100) { b++; n = 0 } n += length($0) + 1; print > (out "." b) }' "$EXTRA"
NBATCH=$(ls "$EXTRA".* | wc -l)
for cmd in usr/lib/wsl/lib/nvidia-smi usr/bin/docker; do
	mv "$ROOT/$cmd" "$ROOT/$cmd.real"
	printf '#!/bin/sh\n"$0.real" "$@"\nrc=$?\ncat %s${SEEDS_BATCH:+.$SEEDS_BATCH}\nexit $rc\n' "'$EXTRA'" >"$ROOT/$cmd"
	chmod +x "$ROOT/$cmd"
done
# the environment: one variable per word-shaped secret (TORCH*: collected)
k=0
while IFS='|' read -r name secret text; do
	case "$text" in *' '*|*'&'*|*';'*) continue ;; esac
	k=$((k + 1))
	setenv "TORCH_SEEN_$k=$text"
done <"$SHAPES"
setenv "CUDA_HOME=/opt/$(sed -n 's/^GitHub ghp_|=|//p' "$SHAPES")/cuda"

# every secret part, one a line
SECRETS="$WORK/secrets"
while IFS='|' read -r name secret text; do
	[ "$secret" = "=" ] && secret=$(printf '%s' "$text" | sed 's/^[A-Z_]*=//')
	printf '%s|%s\n' "$name" "$secret"
done <"$SHAPES" >"$SECRETS"
cat "$WORK/filesonly" >>"$SECRETS"
NSHAPES=$(wc -l <"$SECRETS")

# ---- the bundle ----
run report -o "$WORK/b.tar.gz"
check "report writes the bundle (exit $RC)" '[ "$RC" = 0 ] || [ "$RC" = 1 ]'
mkdir "$WORK/ex"
tar xzf "$WORK/b.tar.gz" -C "$WORK/ex"
B="$WORK/ex/$(ls "$WORK/ex")"
MEMBERS=$(find "$B" -type f | wc -l)
check "the bundle has its members ($MEMBERS)" '[ "$MEMBERS" -ge 15 ]'
check "the seeds reached the members" 'grep -q "seen in a log" "$B/evidence/ld.so.conf.d/zz-seen.conf" && grep -q "Private-Lines: 2" "$B/evidence/docker-info.txt" && grep -q "^TORCH_SEEN_1=" "$B/evidence/environment.txt"'
gzip -dc "$WORK/b.tar.gz" >"$WORK/b.tar"
while IFS='|' read -r name secret; do
	where=$(grep -rlF -- "$secret" "$B" | sed "s|$B/||" | tr '\n' ' ')
	grep -qaF -- "$secret" "$WORK/b.tar" && where="$where(tar stream)"
	check "$name: in no member of $MEMBERS${where:+ (found in: $where)}" '[ -z "$where" ]'
done <"$SECRETS"
check "check.json is JSON after it all" 'jq -e . "$B/check.json" >/dev/null'
while IFS= read -r v; do
	check "kept in the bundle: $v" 'grep -rqF -- "$v" "$B/evidence"'
done <"$KEPT"
check "the GPU UUID is one placeholder in the bundle" 'grep -Eq "GPU UUID +: GPU-<uuid-[0-9]+>" "$B/evidence/nvidia-smi-q.txt" && ! grep -rqi 3f2a9c41-7b6d "$B"'

# ---- the user's own outputs: check, smoke, fix, explain --check ----
# One kilobyte of seeds a run, so that each reaches nvml.smi's evidence.
OUTS="$WORK/outs"
mkdir "$OUTS"
BASE_ENV=$EXTRA_ENV
b=1
while [ $b -le "$NBATCH" ]; do
	EXTRA_ENV="$BASE_ENV SEEDS_BATCH=$b"
	run check -v
	printf '%s\n' "$OUT" >"$OUTS/check-$b.txt"
	run check -v --json
	printf '%s\n' "$OUT" >"$OUTS/check-$b.json"
	check "check --json is JSON (seeds $b of $NBATCH)" 'jq -e . "$OUTS/check-$b.json" >/dev/null'
	check "the seeds reached check's results (seeds $b)" '[ "$(grep -o "<secret>" "$OUTS/check-$b.json" | wc -l)" -ge 2 ]'
	run smoke --json --junit "$OUTS/junit-$b.xml" --prom "$OUTS/smoke-$b.prom"
	printf '%s\n' "$OUT" >"$OUTS/smoke-$b.json"
	check "smoke --json is JSON (seeds $b)" 'jq -e . "$OUTS/smoke-$b.json" >/dev/null'
	b=$((b + 1))
done
EXTRA_ENV="$BASE_ENV SEEDS_BATCH=1"
run fix
printf '%s\n' "$OUT" >"$OUTS/fix.txt"
run explain --check "CUDA_ERROR_NO_DEVICE"
printf '%s\n%s\n' "$OUT" "$ERR" >"$OUTS/explain.txt"
EXTRA_ENV=$BASE_ENV
NOUT=$(ls "$OUTS" | wc -l)
# each secret went into one of the check runs' results, whole: unscrubbed,
# its text would be there (the seeds' own lines, around it, are)
check "the seeds' lines are in check's outputs" '[ "$(cat "$OUTS"/check-*.json | grep -o "seen in a log\|<secret>" | wc -l)" -ge "$NSHAPES" ]'
while IFS='|' read -r name secret; do
	where=$(grep -lF -- "$secret" "$OUTS"/* | sed "s|$OUTS/||" | tr '\n' ' ')
	check "$name: in none of the $NOUT outputs${where:+ (found in: $where)}" '[ -z "$where" ]'
done <"$SECRETS"
for v in 551.23 sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 "nvidia-cudnn-cu12 9.1.0.70"; do
	check "kept in check --json: $v" 'cat "$OUTS"/check-*.json | grep -qF -- "$v"'
done
check "the user's own home and host names stay in check --json" 'grep -q "/home/marguerite" "$OUTS/check-1.json"'
echo "# $NSHAPES shapes, $MEMBERS bundle members, $NOUT outputs"

done_testing
