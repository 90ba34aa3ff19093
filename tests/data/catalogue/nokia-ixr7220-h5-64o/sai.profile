# source: sonic-net/sonic-buildimage@086b03bd70f9:device/nokia/x86_64-nokia_ixr7220_h5_64o-r0/Nokia-IXR7220-H5-64O/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/h5_64o.yml
