# source: sonic-net/sonic-buildimage@086b03bd70f9:device/supermicro/x86_64-supermicro_sse_t8164-r0/Supermicro_sse_t8164/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/th5-sse-t8164-64x800G.config.yml
