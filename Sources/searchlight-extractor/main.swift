import CVips; print(cvips_probe())
