/* A source without its licence line: scripts/check-licence must refuse it (ctest check_licence_finds_missing). */
int main(void)
{
  return 0;
}
