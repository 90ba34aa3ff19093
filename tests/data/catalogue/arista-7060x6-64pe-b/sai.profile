# source: sonic-net/sonic-buildimage@086b03bd70f9:device/arista/x86_64-arista_7060x6_64pe_b/Arista-7060X6-64PE-B-C512S2/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/th5-a7060x6-64pe.config.bcm
