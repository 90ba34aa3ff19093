#!/usr/bin/env bash
# Offline vendor oracles for the committed switch goldens (not part of `.ci/run`; run with
# FABRICC_ORACLES=1 .ci/run, or directly). Everything fetched goes under /tmp and nothing of
# it is committed:
#  * Arista AVD (pyavd 6.4.0, from PyPI into /tmp/avd-venv): every EOS `qos.cfg` is read back
#    into AVD structured config, validated against AVD's schema and re-rendered by AVD; the
#    lines must be equal (scripts/eos_avd_oracle.py).
#  * Juniper's YANG models (github.com/Juniper/yang, release 24.2R1.17, Junos for QFX): every
#    Junos `qos.conf` statement and value must be in the models (scripts/junos_yang_check.py,
#    pyang 2.7.1 from PyPI into /tmp/yang-venv). The models are not on a package index: put
#    them in $JUNOS_YANG (default /tmp/junos-yang) first; the check is skipped without them.
#  * SONiC's YANG models and loader (scripts/sonic-yang-check): every SONiC
#    `config_db.fragment.json` must load and validate as `config reload` would check it. Needs
#    a sonic-buildimage checkout or git directory in $SONIC_BUILDIMAGE (at 086b03bd70f9) and
#    the libyang C library (`apt-get install libyang2-dev`); skipped without the checkout.
# Each oracle is skipped, and says so, when its tool cannot be installed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
status=0
if [ ! -x /tmp/avd-venv/bin/python ] || ! /tmp/avd-venv/bin/python -c 'import pyavd' 2>/dev/null; then
    { python3 -m venv /tmp/avd-venv && /tmp/avd-venv/bin/pip install -q pyavd==6.4.0; } || true
fi
if /tmp/avd-venv/bin/python -c 'import pyavd' 2>/dev/null; then
    /tmp/avd-venv/bin/python scripts/eos_avd_oracle.py --self-test || status=1
    /tmp/avd-venv/bin/python scripts/eos_avd_oracle.py fixtures/build/* || status=1
else
    echo "skipped: the EOS/AVD oracle (pyavd could not be installed)"
fi
yang="${JUNOS_YANG:-/tmp/junos-yang}"
if [ -f "$yang/junos-qfx-conf-root@2024-01-01.yang" ]; then
    if [ ! -x /tmp/yang-venv/bin/python ] || ! /tmp/yang-venv/bin/python -c 'import pyang' 2>/dev/null; then
        { python3 -m venv /tmp/yang-venv && /tmp/yang-venv/bin/pip install -q pyang==2.7.1; } || true
    fi
    if /tmp/yang-venv/bin/python -c 'import pyang' 2>/dev/null; then
        /tmp/yang-venv/bin/python scripts/junos_yang_check.py --yang "$yang" fixtures/build/* || status=1
    else
        echo "skipped: the Junos YANG check (pyang could not be installed)"
    fi
else
    echo "skipped: the Junos YANG check (no Juniper QFX models in $yang)"
fi
if [ -n "${SONIC_BUILDIMAGE:-}" ] && [ -e "$SONIC_BUILDIMAGE" ]; then
    scripts/sonic-yang-check "$SONIC_BUILDIMAGE" fixtures/build/*/switches/*/config_db.fragment.json \
        || status=1
else
    echo "skipped: the SONiC YANG check (no sonic-buildimage in \$SONIC_BUILDIMAGE)"
fi
exit $status
